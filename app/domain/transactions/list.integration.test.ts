import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import type { TransactionState } from "~/db/schema";
import { parseListQuery } from "./filters";
import { countTransactions, iterateTransactions, listTransactions } from "./list.server";
import { runRowAction } from "~/domain/payments/transaction-actions.server";
import { bumpTotals } from "~/domain/payments/running-totals.server";
import { listStatistics } from "./totals.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let orderNo = 0;

type Row = {
  plugin?: string;
  state?: TransactionState;
  amount?: number;
  currency?: string;
  email?: string;
  phone?: string;
  created: string;
  captured?: number;
  merchantId?: number;
};

/** Inserts a transaction as the app would, with its running totals. */
async function insert(row: Row) {
  const merchantId = row.merchantId ?? shop.merchantId;
  const id = `T${String(++orderNo).padStart(21, "0")}`;
  const plugin = row.plugin ?? "payment_request";
  const currency = row.currency ?? "KWD";
  const amount = row.amount ?? 1000;
  await database.db
    .insertInto("transactions")
    .values({
      id,
      merchant_id: merchantId,
      unit_id: null,
      plugin,
      order_no: orderNo,
      state: row.state ?? "created",
      amount,
      currency_code: currency,
      editable_amount: 0,
      customer_email: row.email ?? null,
      customer_email_lc: row.email?.toLowerCase() ?? null,
      customer_phone: row.phone ?? null,
      customer_first_name: null,
      customer_last_name: null,
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
      captured_amount: row.captured ?? 0,
      paid_amount: row.captured ?? 0,
      send_email: 0,
      send_sms: 0,
      created_at: row.created,
      state_changed_at: row.created,
      deleted_at: null,
    })
    .execute();
  await bumpTotals(
    database.db,
    { merchantId, plugin, currency, at: row.created },
    { generated_count: 1, generated_amount: amount },
  );
  if (row.captured)
    await bumpTotals(
      database.db,
      { merchantId, plugin, currency, at: row.created },
      { received_count: 1, received_amount: row.captured },
    );
  return id;
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Lists");
  other = await seedMerchant(database.db, "Others");
  // Both sides of a Kuwait midnight: 20:59 UTC is 23:59 on the 9th in Kuwait, 21:00 UTC is 00:00 on the 10th.
  ids.lateNinth = await insert({
    created: "2026-03-09T20:59:00.000Z",
    email: "Late@Example.com",
    state: "paid",
    captured: 5000,
    amount: 5000,
  });
  ids.earlyTenth = await insert({
    created: "2026-03-09T21:00:00.000Z",
    email: "early@example.com",
    phone: "+96555501234",
  });
  ids.usd = await insert({
    created: "2026-03-11T10:00:00.000Z",
    currency: "USD",
    amount: 2500,
    state: "paid",
    captured: 2500,
    email: "dollar@example.com",
  });
  ids.shop = await insert({
    created: "2026-03-12T10:00:00.000Z",
    plugin: "e_commerce",
    state: "failed",
    email: "shopper@example.com",
  });
  ids.foreign = await insert({
    created: "2026-03-12T11:00:00.000Z",
    merchantId: other.merchantId,
    email: "early@example.com",
  });
});
afterAll(async () => database?.destroy());

const scope = () => ({ merchantId: shop.merchantId, deleted: false });
const query = (text: string) => parseListQuery(new URLSearchParams(text));

describe("the transaction list", () => {
  it("shows only the merchant's rows, newest first, and counts them from the totals", async () => {
    const page = await listTransactions(database.db, scope(), query(""));
    expect(page.rows.map((row) => row.id)).toEqual([ids.shop, ids.usd, ids.earlyTenth, ids.lateNinth]);
    expect(page.count).toBe(4);
  });

  it("narrows to a section", async () => {
    const page = await listTransactions(database.db, { ...scope(), plugin: "e_commerce" }, query(""));
    expect(page.rows.map((row) => row.id)).toEqual([ids.shop]);
    expect(page.count).toBe(1);
  });

  it("reads From and To as Kuwait days", async () => {
    const tenth = await listTransactions(
      database.db,
      scope(),
      query("created_after=2026-03-10&created_before=2026-03-10"),
    );
    expect(tenth.rows.map((row) => row.id)).toEqual([ids.earlyTenth]);
    const ninth = await listTransactions(database.db, scope(), query("created_before=2026-03-09"));
    expect(ninth.rows.map((row) => row.id)).toEqual([ids.lateNinth]);
  });

  it("refuses To before From and leaves that range out", () => {
    const parsed = query("created_after=2026-03-12&created_before=2026-03-10");
    expect(parsed.errors).toEqual({ created_before: "transactions.errors.to_before_from" });
    expect(parsed.filters.created_after).toBeUndefined();
  });

  it("filters by state and currency together", async () => {
    const page = await listTransactions(database.db, scope(), query("state=paid&currency_code=USD"));
    expect(page.rows.map((row) => row.id)).toEqual([ids.usd]);
    expect(page.count).toBe(1);
  });

  it("searches by e-mail start (any case), phone, order number and id, never another merchant's", async () => {
    const find = async (q: string) =>
      (await listTransactions(database.db, scope(), query(`q=${encodeURIComponent(q)}`))).rows.map((row) => row.id);
    expect(await find("LATE@")).toEqual([ids.lateNinth]);
    expect(await find("early@example.com")).toEqual([ids.earlyTenth]);
    expect(await find("55501234")).toEqual([ids.earlyTenth]);
    expect(await find("#3")).toEqual([ids.usd]);
    expect(await find(ids.shop)).toEqual([ids.shop]);
    expect(await find("nobody")).toEqual([]);
  });

  it("pages with a last page for a page past the end", async () => {
    const page = await listTransactions(database.db, scope(), { filters: {}, page: 9, perPage: 10 });
    expect(page.page).toBe(1);
    const second = await listTransactions(database.db, scope(), { filters: {}, page: 2, perPage: 10 });
    expect(second.pageCount).toBe(1);
  });

  it("iterates every matching row in batches by keyset", async () => {
    const seen: string[] = [];
    for await (const batch of iterateTransactions(database.db, scope(), {}, 3))
      seen.push(...batch.map((row) => row.id));
    expect(seen).toEqual([ids.shop, ids.usd, ids.earlyTenth, ids.lateNinth]);
  });

  it("sums the statistics strip per currency", async () => {
    const statistics = await listStatistics(database.db, shop.merchantId);
    expect(statistics.generated).toEqual([
      { currency_code: "KWD", value: 7000 },
      { currency_code: "USD", value: 2500 },
    ]);
    expect(statistics.received).toEqual([
      { currency_code: "KWD", value: 5000 },
      { currency_code: "USD", value: 2500 },
    ]);
  });

  it("moves a deleted row to the deleted list and back, keeping counts and totals right", async () => {
    const actor = { id: shop.admin.id, username: shop.admin.username, is_superuser: 1, permissions: [] };
    const common = {
      merchantId: shop.merchantId,
      user: actor,
      lang: "en" as const,
      baseUrl: "https://pay.example",
      addresses: { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" },
    };
    expect(
      await runRowAction(database.db, { ...common, transactionId: ids.lateNinth, action: "delete" }),
    ).toMatchObject({ ok: false });
    expect(
      await runRowAction(database.db, { ...common, transactionId: ids.earlyTenth, action: "delete" }),
    ).toMatchObject({ ok: true });
    expect(await countTransactions(database.db, scope(), {})).toBe(3);
    expect(await countTransactions(database.db, { ...scope(), deleted: true }, {})).toBe(1);
    expect((await listStatistics(database.db, shop.merchantId)).generated[0]).toEqual({
      currency_code: "KWD",
      value: 6000,
    });
    expect(
      await runRowAction(database.db, { ...common, transactionId: ids.earlyTenth, action: "restore" }),
    ).toMatchObject({ ok: true });
    expect(await countTransactions(database.db, scope(), {})).toBe(4);
    expect(await countTransactions(database.db, scope(), { state: ["created"] })).toBe(1);
  });
});
