import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { loadApp, type TestApp } from "../support/http-app";

/**
 * The transactions API of every section (dashboard spec §7 generic plugin transactions): the
 * list with its filters and pages, its configuration, details, fields, statistics, partial
 * updates and bulk actions — each merchant seeing and touching only its own rows.
 */
let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let beta: Awaited<ReturnType<typeof seedMerchant>>;
const tokens = { admin: "", staff: "", viewer: "", beta: "" };
/** Alpha's payment requests, oldest first. */
const made: { id: string; email: string }[] = [];

const BASE = "/api/v1/plugins/payment_request";
const auth = (token: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, ...extra });
const get = (path: string, token = tokens.admin) => app.request(path, { headers: auth(token) });
const send = (
  method: string,
  path: string,
  json: unknown,
  token = tokens.admin,
  headers: Record<string, string> = {},
) => app.request(path, { method, json, headers: auth(token, headers) });
type Listed = {
  count: number;
  page: number;
  page_count: number;
  next: number | null;
  previous: number | null;
  results: Record<string, unknown>[];
};
const list = async (query = "", token = tokens.admin, base = `${BASE}/transaction`) => {
  const response = await get(`${base}${query}`, token);
  expect(response.status).toBe(200);
  return (await response.json()) as Listed;
};
const ids = (listed: Listed) => listed.results.map((row) => row.id);

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  beta = await seedMerchant(database.db, "Beta");
  await createUser(database.db, alpha.merchantId, {
    username: "Alpha-viewer",
    email: "viewer@alpha.example",
    firstName: "View",
    lastName: "Only",
    permissions: ["view_paymenttransaction"],
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  tokens.admin = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
  tokens.staff = (await app.apiToken(alpha.staff.username, DEMO_PASSWORD)).access;
  tokens.viewer = (await app.apiToken("Alpha-viewer", DEMO_PASSWORD)).access;
  tokens.beta = (await app.apiToken(beta.admin.username, DEMO_PASSWORD)).access;
  for (let index = 1; index <= 12; index++) {
    const email = `buyer${String(index).padStart(2, "0")}@shop.example`;
    const body = {
      amount: `${index}.000`,
      pg_codes: ["mpgs-sandbox", "cod"],
      customer_email: email,
      ...(index === 12 ? { currency_code: "USD", pg_codes: ["mpgs-sandbox"] } : {}),
    };
    const response = await send("POST", `${BASE}/transaction`, body);
    expect(response.status).toBe(201);
    made.push({ id: (await response.json()).id, email });
  }
  await send(
    "POST",
    `${BASE}/transaction`,
    { amount: "99.000", pg_codes: "cod", customer_email: "secret@beta.example" },
    tokens.beta,
  );
});
afterAll(async () => database?.destroy());

describe("GET plugins/{plugin}/transaction", () => {
  it("answers count and results page by page, newest first, with every field of a transaction", async () => {
    const first = await list();
    expect(first).toMatchObject({ count: 12, page: 1, page_count: 2, next: 2, previous: null });
    expect(ids(first)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((row) => row.id),
    );
    const second = await list("?page=2");
    expect(second).toMatchObject({ count: 12, page: 2, next: null, previous: 1 });
    expect(ids(second)).toEqual([made[1].id, made[0].id]);
    expect((await list("?per_page=50")).results).toHaveLength(12);
    expect((await list("?per_page=all")).results).toHaveLength(12);

    const row = first.results.find((candidate) => candidate.id === made[4].id)!;
    expect(row).toMatchObject({
      type: "payment_request",
      state: "created",
      customer_email: "buyer05@shop.example",
      amount: "5.000",
      original_amount: "5.000",
      paid_amount: "0.000",
      fee: "0.000",
      paid_attempt_fee: null,
      currency_code: "KWD",
      gateway_code: null,
      gateway_name: null,
      pg_codes: ["mpgs-sandbox", "cod"],
      unit: "Alpha Store",
      initiator: { username: alpha.admin.username },
      delivery_location: null,
      extra: {},
      txns: [],
    });
    expect(Object.keys(row)).toEqual(
      expect.arrayContaining(["created", "state_changed_at", "actions", "order_no", "checkout_url"]),
    );
    expect((row.actions as { value: string }[]).map((action) => action.value)).toEqual(["email", "cancel", "delete"]);
    expect((row.actions as Record<string, unknown>[])[0]).toMatchObject({
      url: `${BASE}/transaction/actions/${made[4].id}/email/`,
      display_name: "Resend email",
      icon: "mail",
      available_amount: null,
    });
  });

  it("filters by search, state, currency, creator, dates and flags", async () => {
    expect(ids(await list("?q=buyer03"))).toEqual([made[2].id]);
    expect(ids(await list("?q=BUYER1"))).toEqual([made[11].id, made[10].id, made[9].id]);
    expect(ids(await list(`?q=${made[6].id}`))).toEqual([made[6].id]);
    expect(ids(await list("?currency_code=USD"))).toEqual([made[11].id]);
    expect((await list(`?initiator=${alpha.admin.id}`)).count).toBe(12);
    expect((await list(`?initiator=${alpha.staff.id}`)).count).toBe(0);
    expect((await list("?state=created&per_page=100")).count).toBe(12);
    expect((await list("?state=paid,canceled")).count).toBe(0);
    expect((await list("?created_after=2000-01-01&created_before=2999-12-31")).count).toBe(12);
    expect((await list("?created_after=2999-01-01")).count).toBe(0);
    expect((await list("?seen=false")).count).toBe(12);
    expect((await list("?disclosed_to_merchant=true")).count).toBe(12);
  });

  it("refuses filters it cannot apply instead of answering every row", async () => {
    const bad = await get(`${BASE}/transaction?state=nonsense&initiator=abc&seen=maybe&created_after=yesterday`);
    expect(bad.status).toBe(400);
    expect(Object.keys(await bad.json()).sort()).toEqual(["created_after", "initiator", "seen", "state"]);
    const backwards = await get(`${BASE}/transaction?created_after=2024-05-02&created_before=2024-05-01`);
    expect(await backwards.json()).toEqual({ created_before: ["To cannot precede From."] });
  });

  it("needs the search right to filter, the view right to list", async () => {
    expect((await list("?q=buyer03", tokens.staff)).count).toBe(1);
    expect((await list("", tokens.viewer)).count).toBe(12);
    expect((await get(`${BASE}/transaction?q=buyer03`, tokens.viewer)).status).toBe(403);
    expect((await get(`${BASE}/transaction?page=2`, tokens.viewer)).status).toBe(200);
    expect((await app.request(`${BASE}/transaction`)).status).toBe(401);
  });

  it("shows each merchant only its own rows, and only sections it has", async () => {
    const theirs = await list("?per_page=100", tokens.beta);
    expect(theirs.count).toBe(1);
    expect(theirs.results[0]).toMatchObject({ customer_email: "secret@beta.example" });
    expect((await list(`?q=${made[0].id}`, tokens.beta)).count).toBe(0);
    expect((await list("", tokens.admin, "/api/v1/plugins/catalogue/transaction")).count).toBe(0);
    for (const plugin of ["ticket", "session", "nope"])
      expect((await get(`/api/v1/plugins/${plugin}/transaction`)).status).toBe(404);
    await database.db
      .deleteFrom("merchant_features")
      .where("merchant_id", "=", alpha.merchantId)
      .where("section", "=", "shopify")
      .execute();
    expect((await get("/api/v1/plugins/shopify/transaction")).status).toBe(404);
  });
});

describe("OPTIONS plugins/{plugin}/transaction", () => {
  it("answers the filter choices, the user's bulk actions, the columns and the export defaults", async () => {
    const response = await app.request(`${BASE}/transaction/`, { method: "OPTIONS", headers: auth(tokens.admin) });
    expect(response.status).toBe(200);
    const config = await response.json();
    expect(config.filters_data.states.map((state: { value: string }) => state.value)).toContain("paid");
    expect(config.filters_data.gateways.map((gateway: { code: string }) => gateway.code)).toEqual([
      "knet-sandbox",
      "mpgs-sandbox",
      "cod",
    ]);
    expect(config.filters_data.currencies).toEqual(["KWD", "USD"]);
    expect(config.filters_data.created_by.map((user: { username: string }) => user.username)).toContain(
      alpha.admin.username,
    );
    expect(config.filters_data.created_by.map((user: { username: string }) => user.username)).not.toContain(
      beta.admin.username,
    );
    expect(config.filters_data.units).toEqual([expect.objectContaining({ title: "Alpha Store" })]);
    expect(config.filters_data).toMatchObject({ bulks: [], product_types: [] });
    expect(config.actions.map((action: { value: string }) => action.value)).toEqual([
      "email",
      "sms",
      "cancel",
      "delete",
    ]);
    expect(config.actions.at(-1)).toMatchObject({ method: "DELETE", url: `${BASE}/transaction` });
    const active = config.fields
      .filter((field: { is_active: boolean }) => field.is_active)
      .map((field: { name: string }) => field.name);
    expect(config.export).toEqual({ default: active });
    expect(config.fields[0]).toMatchObject({ name: "order_no", label_en: "Order no.", is_active: true, order: 1 });
    expect(config.enable_editable_amount).toBe(true);
    expect(config.plugins.payment_request.units).toHaveLength(1);

    const staff = await (
      await app.request(`${BASE}/transaction`, { method: "OPTIONS", headers: auth(tokens.staff) })
    ).json();
    expect(staff.actions).toEqual([]);
    const deleted = await (
      await app.request(`${BASE}/deleted_transaction`, { method: "OPTIONS", headers: auth(tokens.admin) })
    ).json();
    expect(deleted.actions.map((action: { value: string }) => action.value)).toEqual(["restore"]);
  });
});

describe("details", () => {
  it("adds label and value rows and the pay link's QR code; another merchant's id is not found", async () => {
    const response = await get(`${BASE}/transaction/details/${made[2].id}/`);
    expect(response.status).toBe(200);
    const details = await response.json();
    expect(details).toMatchObject({
      id: made[2].id,
      amount: "3.000",
      has_editable_amount: false,
      checkout_url: `http://localhost:3000/en/pay/${made[2].id}`,
    });
    expect(details.details).toEqual(
      expect.arrayContaining([{ name: "amount", label: "Amount", value: expect.stringMatching(/^KWD\s3\.000$/) }]),
    );
    expect(details.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(details.qr_code.split(",")[1], "base64").toString()).toContain("<svg");
    const arabic = await (
      await app.request(`${BASE}/transaction/details/${made[2].id}`, {
        headers: auth(tokens.admin, { "Accept-Language": "ar" }),
      })
    ).json();
    expect(arabic.details.find((row: { name: string }) => row.name === "amount").label).not.toBe("Amount");

    expect((await get(`${BASE}/transaction/details/${made[2].id}`, tokens.beta)).status).toBe(404);
    expect((await get(`/api/v1/plugins/catalogue/transaction/details/${made[2].id}`)).status).toBe(404);
    expect((await get(`${BASE}/deleted_transaction/${made[2].id}`)).status).toBe(404);
    // The customers' pay API keeps its path.
    expect((await app.request(`${BASE}/transaction/${made[2].id}`)).status).toBe(200);
  });
});

describe("table fields", () => {
  it("reads everyone's columns; changes them only with the section's header right", async () => {
    const fields = await (await get(`${BASE}/transaction/fields`, tokens.staff)).json();
    expect(fields.length).toBeGreaterThan(8);
    const change = [
      { name: "customer_phone", label_en: "Mobile", label_ar: "الجوال", is_active: true, order: 2 },
      { name: "initiator", is_active: false },
    ];
    expect((await send("PATCH", `${BASE}/transaction/fields/`, change, tokens.staff)).status).toBe(403);
    const saved = await send("PATCH", `${BASE}/transaction/fields/`, change);
    expect(saved.status).toBe(200);
    const after = await saved.json();
    // Order 2 comes after the column already second; the orders are then numbered again.
    expect(after.slice(0, 4).map((field: { name: string }) => field.name)).toEqual([
      "order_no",
      "created",
      "customer_phone",
      "customer_email",
    ]);
    expect(after[2]).toMatchObject({
      name: "customer_phone",
      label_en: "Mobile",
      label_ar: "الجوال",
      is_active: true,
      order: 3,
    });
    expect(after.find((field: { name: string }) => field.name === "initiator").is_active).toBe(false);
    // A setting change through the API is audited like one made on the page.
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["actor_name", "description"])
      .where("merchant_id", "=", alpha.merchantId)
      .where("action", "=", "table_headers_changed")
      .where("object_id", "=", "payment_request")
      .execute();
    expect(audit).toEqual([expect.objectContaining({ actor_name: alpha.admin.username })]);
    // The columns by their names, not their codes.
    expect(audit[0].description).toContain("Mobile");
    const config = await (
      await app.request(`${BASE}/transaction`, { method: "OPTIONS", headers: auth(tokens.admin) })
    ).json();
    expect(config.export.default).toContain("customer_phone");
    expect(config.export.default).not.toContain("initiator");
    // Another section and another merchant keep their own.
    const catalogue = await (await get("/api/v1/plugins/catalogue/transaction/fields")).json();
    expect(catalogue.find((field: { name: string }) => field.name === "customer_phone").is_active).toBe(false);
    const theirs = await (await get(`${BASE}/transaction/fields`, tokens.beta)).json();
    expect(theirs.find((field: { name: string }) => field.name === "customer_phone").label_en).not.toBe("Mobile");

    const unknown = await send("PATCH", `${BASE}/transaction/fields`, [{ name: "card_number" }]);
    expect(unknown.status).toBe(400);
    expect((await send("PATCH", `${BASE}/transaction/fields`, { fields: "all" })).status).toBe(400);
  });

  it("lists every section's columns and tells who may edit a section's headers", async () => {
    const all = await (await get("/api/v1/plugins/transaction-fields")).json();
    expect(all.map((entry: { section: string }) => entry.section)).toEqual(
      expect.arrayContaining(["payment_request", "catalogue", "food_ordering"]),
    );
    expect(all.every((entry: { enabled: boolean }) => entry.enabled)).toBe(true);
    const check = async (section: string, token = tokens.admin) =>
      (await (await get(`/api/v1/plugins/transaction-fields/check/${section}/`, token)).json()).enabled;
    expect(await check("payment_request")).toBe(true);
    expect(await check("payment_request", tokens.staff)).toBe(false);
    expect(await check("ticket")).toBe(false);
    expect(await check("nope")).toBe(false);
  });
});

describe("GET plugins/{plugin}/currency_statistics", () => {
  it("answers generated, received and balance per currency as decimals, with the statistics right", async () => {
    const response = await get(`${BASE}/currency_statistics`);
    expect(response.status).toBe(200);
    const statistics = await response.json();
    // 1 + 2 + … + 11 KWD; the twelfth request is in USD.
    expect(statistics.generated).toEqual([
      { currency_code: "KWD", value: "66.000" },
      { currency_code: "USD", value: "12.00" },
    ]);
    expect(statistics.received).toEqual([
      { currency_code: "KWD", value: "0.000" },
      { currency_code: "USD", value: "0.00" },
    ]);
    expect(statistics.balance).toHaveLength(2);
    expect((await get(`${BASE}/currency_statistics`, tokens.staff)).status).toBe(403);
    expect((await (await get(`${BASE}/currency_statistics`, tokens.beta)).json()).generated).toEqual([
      { currency_code: "KWD", value: "99.000" },
    ]);
  });
});

describe("PATCH plugins/{plugin}/transaction/partial-update/{id}", () => {
  it("marks a row seen, once per Idempotency-Key, audited; refuses read-only fields and other merchants", async () => {
    const path = `${BASE}/transaction/partial-update/${made[3].id}/`;
    const first = await send("PATCH", path, { seen: true }, tokens.admin, { "Idempotency-Key": "seen-1" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ id: made[3].id, seen: true });
    const again = await send("PATCH", path, { seen: true }, tokens.admin, { "Idempotency-Key": "seen-1" });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await send("PATCH", path, { seen: false }, tokens.admin, { "Idempotency-Key": "seen-1" })).status).toBe(
      422,
    );
    expect(ids(await list("?seen=true"))).toEqual([made[3].id]);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("action", "=", "transaction_update")
      .where("object_id", "=", made[3].id)
      .execute();
    expect(audit).toHaveLength(1);

    const readOnly = await send("PATCH", path, { amount: "1.000", seen: "yes" });
    expect(readOnly.status).toBe(400);
    expect(Object.keys(await readOnly.json()).sort()).toEqual(["amount", "seen"]);
    expect((await send("PATCH", path, { seen: true }, tokens.staff)).status).toBe(403);
    expect((await send("PATCH", path, { seen: true }, tokens.beta)).status).toBe(404);
    expect(
      (await send("PATCH", `/api/v1/plugins/catalogue/transaction/partial-update/${made[3].id}`, { seen: true }))
        .status,
    ).toBe(404);
    expect((await send("PATCH", path, { attachment: "1/not-mine/file.pdf" })).status).toBe(400);
  });
});

describe("bulk actions and deleted transactions", () => {
  it("cancels, deletes and restores many rows, partially when some cannot be, never another merchant's", async () => {
    const [a, b, c] = [made[0].id, made[1].id, made[2].id];
    const canceled = await send("POST", `${BASE}/transaction/actions/bulk/cancel/`, { ids: [a] });
    expect(canceled.status).toBe(200);
    const partly = await send("POST", `${BASE}/transaction/actions/bulk/cancel/`, { ids: [a, b] });
    expect(partly.status).toBe(207);
    const partlyBody = await partly.json();
    expect(partlyBody.message).toBe("Applied partially");
    expect(partlyBody.results.map((result: { id: string; ok: boolean }) => [result.id, result.ok])).toEqual([
      [a, false],
      [b, true],
    ]);
    expect(ids(await list("?state=canceled"))).toEqual([b, a]);

    expect((await send("DELETE", `${BASE}/transaction`, { ids: [a, b] }, tokens.staff)).status).toBe(403);
    const theirs = await send("DELETE", `${BASE}/transaction`, { ids: [a] }, tokens.beta);
    expect(theirs.status).toBe(400);
    const deleted = await send("DELETE", `${BASE}/transaction/`, { ids: [a, b, c] });
    expect(deleted.status).toBe(200);
    expect((await list()).count).toBe(9);
    const bin = await list("", tokens.admin, `${BASE}/deleted_transaction`);
    expect(ids(bin).sort()).toEqual([a, b, c].sort());
    expect(bin.results.find((row) => row.id === a)!.actions).toEqual([expect.objectContaining({ value: "restore" })]);
    expect((await get(`${BASE}/deleted_transaction/${a}/`)).status).toBe(200);
    expect((await get(`${BASE}/transaction/details/${a}`)).status).toBe(404);
    expect((await list("", tokens.beta, `${BASE}/deleted_transaction`)).count).toBe(0);

    const restored = await send("POST", `${BASE}/transaction/actions/bulk/restore/`, { ids: [c] });
    expect(restored.status).toBe(200);
    expect((await list()).count).toBe(10);
    expect((await send("POST", `${BASE}/transaction/actions/bulk/refund/`, { ids: [c] })).status).toBe(404);
    expect((await send("POST", `${BASE}/transaction/actions/bulk/cancel/`, { ids: [] })).status).toBe(400);

    // Another merchant sends alpha's ids: nothing canceled, nothing restored, and its answer names none as done.
    const rowsOf = (rowIds: string[]) =>
      database.db
        .selectFrom("transactions")
        .select(["id", "state", "deleted_at"])
        .where("id", "in", rowIds)
        .orderBy("id")
        .execute();
    const before = await rowsOf([a, b, c]);
    for (const [action, target] of [
      ["cancel", c],
      ["restore", a],
      ["restore", b],
    ] as const) {
      const response = await send(
        "POST",
        `${BASE}/transaction/actions/bulk/${action}/`,
        { ids: [target] },
        tokens.beta,
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      const body = (await response.json()) as { results?: { ok: boolean }[] };
      expect((body.results ?? []).filter((result) => result.ok)).toEqual([]);
    }
    expect(await rowsOf([a, b, c])).toEqual(before);
    expect(before.find((row) => row.id === c)?.deleted_at).toBeNull();
    expect(before.find((row) => row.id === a)?.deleted_at).not.toBeNull();
    expect((await list("", tokens.beta, `${BASE}/deleted_transaction`)).count).toBe(0);
  });
});

describe("GET search/express", () => {
  it("finds rows of every section by e-mail, order number or id, newest first, never another merchant's", async () => {
    const target = made[3]!;
    const byEmail = await get(`/api/v1/search/express?q=${encodeURIComponent(target.email)}`);
    expect(byEmail.status).toBe(200);
    const found = (await byEmail.json()) as { count: number; results: Record<string, unknown>[] };
    expect(found.count).toBe(1);
    expect(found.results[0]).toMatchObject({
      id: target.id,
      customer_email: target.email,
      amount: "4.000",
      currency_code: "KWD",
    });
    const byId = (await (await get(`/api/v1/search/express/?q=${target.id}`)).json()) as { results: { id: string }[] };
    expect(byId.results.map((row) => row.id)).toEqual([target.id]);
    const prefix = (await (await get("/api/v1/search/express?q=buyer1")).json()) as {
      count: number;
      results: { customer_email: string }[];
    };
    expect(prefix.count).toBe(3);
    expect(prefix.results.map((row) => row.customer_email)).toEqual([
      "buyer12@shop.example",
      "buyer11@shop.example",
      "buyer10@shop.example",
    ]);
    const theirs = (await (await get("/api/v1/search/express?q=secret@beta.example")).json()) as { count: number };
    expect(theirs.count).toBe(0);
  });

  it("needs q and the search right, and describes itself to OPTIONS in the caller's language", async () => {
    const missing = await get("/api/v1/search/express");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ q: ["This field is required"] });
    expect((await get("/api/v1/search/express?q=buyer", tokens.viewer)).status).toBe(403);
    const options = await app.request("/api/v1/search/express", {
      method: "OPTIONS",
      headers: auth(tokens.admin, { "Accept-Language": "ar" }),
    });
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({
      name: "البحث السريع",
      actions: { GET: { q: { required: true, max_length: 100 } } },
    });
  });
});

// Last: it adds a row the counts above do not expect.
describe("partial refunds and names", () => {
  it("keeps the stored state, adds the display state of a partial refund, and finds customers by name", async () => {
    const created = await send("POST", `${BASE}/transaction`, {
      amount: "8.000",
      pg_codes: ["cod"],
      customer_first_name: "فاطمة",
      customer_last_name: "Al-Sager",
      customer_email: "partial@shop.example",
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).id as string;
    // Paid by card with 3.000 of it given back, as the books would hold it.
    await database.db
      .updateTable("transactions")
      .set({ state: "paid", captured_amount: 8000, paid_amount: 8000, refunded_amount: 3000 })
      .where("id", "=", id)
      .execute();
    const found = await list(`?q=${encodeURIComponent("فاطمه al-sag")}`);
    expect(ids(found)).toEqual([id]);
    expect(found.results[0]).toMatchObject({ state: "paid", display_state: "partially_refunded" });
    expect(ids(await list("?state=partially_refunded"))).toEqual([id]);
    expect(ids(await list("?state=paid"))).toEqual([id]);
    for (const row of (await list("?per_page=100")).results)
      if (row.id !== id) expect(row.display_state).toBe(row.state);
  });
});
