import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import type { TransactionState } from "~/db/schema";
import { runRowAction } from "~/domain/payments/transaction-actions.server";
import { displayStateOf } from "./display-state";
import { parseListQuery } from "./filters";
import { iterateTransactions, listTransactions } from "./list.server";
import { nameSearchKey } from "./search-key";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let orderNo = 0;
let minute = 0;

type Row = {
  first?: string | null;
  last?: string | null;
  email?: string;
  plugin?: string;
  state?: TransactionState;
  refunded?: number;
  merchantId?: number;
};

/** A transaction as the app writes it (the search's terms come from the database's triggers). */
async function insert(row: Row) {
  const id = `S${String(++orderNo).padStart(21, "0")}`;
  const created = new Date(Date.UTC(2026, 2, 1, 8, minute++)).toISOString();
  const captured = row.state === "paid" || row.state === "refunded" ? 10_000 : 0;
  await database.db
    .insertInto("transactions")
    .values({
      id,
      merchant_id: row.merchantId ?? shop.merchantId,
      unit_id: null,
      plugin: row.plugin ?? "payment_request",
      order_no: orderNo,
      state: row.state ?? "created",
      amount: 10_000,
      currency_code: "KWD",
      editable_amount: 0,
      customer_email: row.email ?? null,
      customer_email_lc: row.email?.toLowerCase() ?? null,
      customer_phone: null,
      customer_first_name: row.first ?? null,
      customer_last_name: row.last ?? null,
      description: null,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: "cod",
      expiration_time: null,
      next_url: null,
      initiator_user_id: null,
      gateway_code: null,
      paid_attempt_id: null,
      captured_amount: captured,
      paid_amount: captured,
      refunded_amount: row.refunded ?? (row.state === "refunded" ? captured : 0),
      send_email: 0,
      send_sms: 0,
      created_at: created,
      state_changed_at: created,
      deleted_at: null,
    })
    .execute();
  return id;
}

const ids: Record<string, string> = {};
const scope = (extra: { plugin?: string; deleted?: boolean } = {}) => ({
  merchantId: shop.merchantId,
  deleted: false,
  ...extra,
});
const query = (text: string) => parseListQuery(new URLSearchParams(text));
async function find(q: string, extra: { plugin?: string; deleted?: boolean } = {}, more = "") {
  const page = await listTransactions(database.db, scope(extra), query(`q=${encodeURIComponent(q)}${more}`));
  return { ids: page.rows.map((row) => row.id), count: page.count };
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Names");
  other = await seedMerchant(database.db, "Elsewhere");
  ids.mohammad = await insert({ first: "محمد", last: "الصباح", email: "m.sabah@example.com", state: "paid" });
  ids.mohammadVowelled = await insert({ first: "مُحمّد", last: "العنزي", plugin: "e_commerce" });
  ids.fatimaArabic = await insert({ first: "فاطمة", last: "المطيري", state: "paid", refunded: 2500 });
  ids.fatima = await insert({ first: "Fatima", last: "Al-Mutairi", email: "f.m@example.com", state: "refunded" });
  ids.fatimahEmail = await insert({ email: "fatimah_1990@example.com" });
  ids.ahmad = await insert({ first: "أحمد", last: null, state: "failed" });
  ids.noura = await insert({ first: "Noura", last: "Abdul Rahman Al-Sager" });
  ids.foreign = await insert({
    first: "محمد",
    last: "الصباح",
    email: "m.sabah@example.com",
    merchantId: other.merchantId,
  });
});
afterAll(async () => database?.destroy());

describe("search by customer name", () => {
  it("finds Arabic names whatever the spelling of alef, ta marbuta and the short vowels", async () => {
    expect(await find("محمد")).toEqual({ ids: [ids.mohammadVowelled, ids.mohammad], count: 2 });
    expect((await find("مُحَمَّد")).ids).toEqual([ids.mohammadVowelled, ids.mohammad]);
    expect((await find("فاطمه")).ids).toEqual([ids.fatimaArabic]);
    expect((await find("احمد")).ids).toEqual([ids.ahmad]);
    expect((await find("إحمد")).ids).toEqual([ids.ahmad]);
  });

  it("finds an Arabic family name with or without its article", async () => {
    expect((await find("صباح")).ids).toEqual([ids.mohammad]);
    expect((await find("مطيري")).ids).toEqual([ids.fatimaArabic]);
    expect((await find("محمد صباح")).ids).toEqual([]);
    const plain = await insert({ first: "سارة", last: "عنزي" });
    expect((await find("العنزي")).ids).toEqual([plain, ids.mohammadVowelled]);
    expect((await find("عنزي")).ids).toEqual([plain, ids.mohammadVowelled]);
    // The article alone is not a name.
    expect((await find("ال")).ids).toEqual(expect.arrayContaining([ids.mohammad, ids.fatimaArabic]));
  });

  it("finds English names in any case, by first name, last name, or several words in a row, and e-mails by their start", async () => {
    expect(await find("Fatima")).toEqual({ ids: [ids.fatimahEmail, ids.fatima], count: 2 });
    expect((await find("mutairi")).ids).toEqual([ids.fatima]);
    expect((await find("al-mutairi")).ids).toEqual([ids.fatima]);
    expect((await find("fatima al mut")).ids).toEqual([ids.fatima]);
    expect((await find("rahman al")).ids).toEqual([ids.noura]);
    expect((await find("M.SABAH@")).ids).toEqual([ids.mohammad]);
    expect((await find("atima")).ids).toEqual([]);
  });

  it("finds an order number typed in Arabic-Indic digits", async () => {
    const orderNoOf = async (id: string) =>
      (await database.db.selectFrom("transactions").select("order_no").where("id", "=", id).executeTakeFirstOrThrow())
        .order_no;
    const number = String(await orderNoOf(ids.ahmad));
    const arabic = [...number].map((digit) => String.fromCharCode(0x660 + Number(digit))).join("");
    expect((await find(arabic)).ids).toContain(ids.ahmad);
  });

  it("stays within the list: its merchant, its section, live or deleted, and the other filters", async () => {
    expect((await find("محمد", { plugin: "e_commerce" })).ids).toEqual([ids.mohammadVowelled]);
    expect((await find("محمد", {}, "&state=paid")).ids).toEqual([ids.mohammad]);
    expect(await find("Noura", { deleted: true })).toEqual({ ids: [], count: 0 });
    const actor = { id: shop.admin.id, username: shop.admin.username, is_superuser: 1, permissions: [] };
    const common = {
      merchantId: shop.merchantId,
      user: actor,
      lang: "en" as const,
      baseUrl: "https://pay.example",
      addresses: { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" },
    };
    expect(await runRowAction(database.db, { ...common, transactionId: ids.noura, action: "delete" })).toMatchObject({
      ok: true,
    });
    expect(await find("Noura")).toEqual({ ids: [], count: 0 });
    expect(await find("Noura", { deleted: true })).toEqual({ ids: [ids.noura], count: 1 });
    expect(await runRowAction(database.db, { ...common, transactionId: ids.noura, action: "restore" })).toMatchObject({
      ok: true,
    });
    expect((await find("Noura")).ids).toEqual([ids.noura]);
  });

  it("follows a name that changes", async () => {
    const id = await insert({ first: "Dana" });
    await database.db.updateTable("transactions").set({ customer_first_name: "Dalal" }).where("id", "=", id).execute();
    expect((await find("dana")).ids).toEqual([]);
    expect((await find("dalal")).ids).toEqual([id]);
  });

  it("shows a row matched by two words once, and stops counting at the limit it is given", async () => {
    const twice = [
      await insert({ first: "Abdullah", last: "Abdullah" }),
      await insert({ first: "Abdullah", last: "Abdullah" }),
      await insert({ first: "Abdullah", last: "Abdullah" }),
    ];
    const page = await listTransactions(database.db, scope(), { filters: { q: "abdullah" }, page: 1, perPage: 10 });
    expect(page.rows.map((row) => row.id)).toEqual([...twice].reverse());
    expect(page.count).toBe(3);
    const capped = await listTransactions(
      database.db,
      scope(),
      { filters: { q: "abdullah" }, page: 2, perPage: 10 },
      { countLimit: 2 },
    );
    expect(capped).toMatchObject({ count: 3, countCapped: true, page: 1 });
    expect(capped.rows).toHaveLength(3);
    const tab = await listTransactions(
      database.db,
      scope(),
      { filters: { state: ["created"] }, page: 1, perPage: 10 },
      { countLimit: 2 },
    );
    expect(tab).toMatchObject({ count: 3, countCapped: true });
  });

  it("exports the same matches as the list shows", async () => {
    const exported: string[] = [];
    for await (const batch of iterateTransactions(database.db, scope(), { q: "محمد" }, 1))
      exported.push(...batch.map((row) => row.id));
    expect(exported).toEqual([ids.mohammadVowelled, ids.mohammad]);
  });

  it("indexes a name in the very form the search box's text is put in", async () => {
    const names = ["  ʿAbd-Allah  O'Neil ", "عبد الله\tالصّباح", "آمنة ـ الرشيدي", "Élise DUPONT", "ئ ؤ ى ی ک ٱ"];
    for (const name of names) {
      const id = await insert({ first: name });
      const { rows } = await sql<{
        term: string;
      }>`select term from transaction_search_terms where transaction_id = ${id}`.execute(database.db);
      const key = nameSearchKey(`${name} `);
      const words = key.split(" ");
      const expected = words.map((_, index) => words.slice(index).join(" "));
      expect(rows.map((row) => row.term).sort()).toEqual(expected.sort());
    }
  });
});

describe("partially refunded", () => {
  it("is what a paid transaction with money given back reads, and a filter of its own", async () => {
    expect(displayStateOf({ state: "paid", refunded_amount: 2500 })).toBe("partially_refunded");
    expect(displayStateOf({ state: "paid", refunded_amount: 0 })).toBe("paid");
    expect(displayStateOf({ state: "refunded", refunded_amount: 10_000 })).toBe("refunded");
    const partial = await listTransactions(database.db, scope(), query("state=partially_refunded"));
    expect(partial.rows.map((row) => row.id)).toEqual([ids.fatimaArabic]);
    expect(partial.count).toBe(1);
    const refundedTab = await listTransactions(database.db, scope(), query("state=refunded,partially_refunded"));
    expect(refundedTab.rows.map((row) => row.id)).toEqual([ids.fatima, ids.fatimaArabic]);
    // "Paid" is the stored state: a partly refunded payment is still paid.
    const paid = await listTransactions(database.db, scope(), query("state=paid"));
    expect(paid.rows.map((row) => row.id)).toEqual([ids.fatimaArabic, ids.mohammad]);
  });
});
