import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";

// A customer may type the amount of an editable request only within the bounds the merchant set
// (by default: the currency's smallest unit up to ten times the amount, at most the platform's cap).

let database: TestDatabase;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Bounds");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  token = (await app.apiToken(merchant.admin.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

/** Amounts are written with a no-break space between the currency and the number; the texts below use a plain one. */
const plain = (text: string) => text.replace(/\u00a0/g, " ");
const plainJson = async (response: Response) => JSON.parse(plain(await response.text()));

const createResponse = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request("/api/v1/plugins/payment_request/transaction", {
    json: { amount: "5.000", currency_code: "KWD", pg_codes: ["knet-sandbox", "cod"], editable_amount: true, ...body },
    headers: { Authorization: `Bearer ${token}`, ...headers },
  });

async function createRequest(body: Record<string, unknown> = {}) {
  const response = await createResponse(body);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; min_amount: string | null; max_amount: string | null };
}

const payApi = (id: string, amount: string, headers: Record<string, string> = {}) =>
  app.request(`/api/v1/plugins/payment_request/transaction/pay/${id}`, {
    json: { gateway_code: "cod", amount },
    headers,
  });
const priceApi = (id: string, amount: string) =>
  app.request(`/api/v1/plugins/payment_request/transaction/pay-choices/${id}`, { json: { amount } });

describe("bounds of an editable amount", () => {
  it("refuses on the pay API an amount below the merchant's minimum or above the maximum", async () => {
    const { id, min_amount, max_amount } = await createRequest({ min_amount: "1.000", max_amount: "20.000" });
    for (const amount of ["0.001", "20.001", "99999999999.999"]) {
      const refused = await payApi(id, amount);
      expect(refused.status).toBe(400);
      expect(await plainJson(refused)).toEqual({ amount: ["Enter an amount between KWD 1.000 and KWD 20.000."] });
      expect((await priceApi(id, amount)).status).toBe(400);
    }
    const arabic = await payApi(id, "0.001", { "Accept-Language": "ar" });
    expect((await arabic.json()).amount[0]).toContain("1.000");
    expect(
      await database.db.selectFrom("payment_attempts").select("id").where("transaction_id", "=", id).execute(),
    ).toHaveLength(0);
    expect([min_amount, max_amount]).toEqual(["1.000", "20.000"]);
    expect((await priceApi(id, "20.000")).status).toBe(200);
    const paid = await payApi(id, "1.000");
    expect(paid.status).toBe(200);
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select("amount")
      .where("transaction_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(attempt.amount).toBe(1000);
  });

  it("defaults to the smallest unit up to ten times the amount", async () => {
    const { id, min_amount, max_amount } = await createRequest();
    expect((await payApi(id, "99999999999.999")).status).toBe(400);
    expect([min_amount, max_amount]).toEqual(["0.001", "50.000"]);
    const view = await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${id}`)).json();
    expect(view).toMatchObject({ has_editable_amount: true, min_amount: "0.001", max_amount: "50.000" });
    expect((await priceApi(id, "50.000")).status).toBe(200);
    const refused = await priceApi(id, "50.001");
    expect(await plainJson(refused)).toEqual({ amount: ["Enter an amount between KWD 0.001 and KWD 50.000."] });
  });

  it("keeps a large request's maximum at the platform's cap", async () => {
    const { max_amount } = await createRequest({ amount: "5000" });
    expect(max_amount).toBe("10000.000");
  });

  it("refuses a merchant's minimum above the maximum, or bounds beyond the cap or the amount", async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ min_amount: "3.000", max_amount: "2.000" }, { min_amount: ["The minimum cannot be above the maximum."] }],
      [{ min_amount: "10000.001" }, { min_amount: ["An editable amount can be at most KWD 10,000.000."] }],
      [{ max_amount: "10000.001" }, { max_amount: ["An editable amount can be at most KWD 10,000.000."] }],
      [{ min_amount: "6.000" }, { min_amount: ["The minimum cannot be above the requested amount."] }],
      [{ max_amount: "4.000" }, { max_amount: ["The maximum cannot be below the requested amount."] }],
      [{ min_amount: "0" }, { min_amount: ["Must be valid positive number"] }],
      [{ amount: "10000.001" }, { amount: ["An editable amount can be at most KWD 10,000.000."] }],
    ];
    for (const [body, errors] of cases) {
      const response = await createResponse(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await plainJson(response)).toEqual(errors);
    }
  });

  it("has no bounds on an amount the customer cannot change", async () => {
    const { min_amount, max_amount } = await createRequest({ editable_amount: false, min_amount: "1.000" });
    expect([min_amount, max_amount]).toEqual([null, null]);
  });

  it("shows the bounds under the pay page's amount field and refuses an amount outside them there", async () => {
    const { id } = await createRequest({ min_amount: "2.000", max_amount: "8.000" });
    const page = plain(await (await app.requestPayPage(`/en/pay/${id}`)).text());
    // A text field with a decimal keypad (Arabic-Indic digits are read on the server), carrying its bounds.
    const input = /<input[^>]*name="amount"[^>]*>/.exec(page)?.[0] ?? "";
    expect(input).toMatch(/inputmode="decimal"/i);
    expect(input).not.toContain('type="number"');
    expect(input).toContain('data-min="2.000"');
    expect(input).toContain('data-max="8.000"');
    expect(page).toContain("From KWD 2.000 to KWD 8.000.");
    const arabic = await (await app.requestPayPage(`/ar/pay/${id}`)).text();
    expect(arabic).toMatch(/2\.000[\s\S]*8\.000/);

    const typed = plain(await (await app.requestPayPage(`/en/pay/${id}?amount=9`)).text());
    expect(typed).toMatch(/<p id="amount-error"[^>]*>Enter an amount between KWD 2.000 and KWD 8.000.<\/p>/);

    const submitted = await app.request(`/en/pay/${id}`, {
      form: { gateway_code: "cod", amount: "0.001", submission_token: "bounds-form-1" },
    });
    expect(submitted.status).toBe(400);
    expect(plain(await submitted.text())).toMatch(
      /<p id="amount-error"[^>]*>Enter an amount between KWD 2.000 and KWD 8.000.<\/p>/,
    );
    expect(
      await database.db.selectFrom("payment_attempts").select("id").where("transaction_id", "=", id).execute(),
    ).toHaveLength(0);
  });
});

describe("bounds on the dashboard", () => {
  it("takes them on the create form, with the reason under the field when refused, and shows them on the details page", async () => {
    const cookie = await app.signIn(merchant.admin.username, DEMO_PASSWORD);
    const form = await (await app.request("/en/payment-request/create", { cookie })).text();
    expect(form).toContain('name="min_amount"');
    expect(form).toContain('name="max_amount"');
    expect(form).toContain("Minimum the customer may pay");

    const fields = {
      amount: "5.000",
      currency_code: "KWD",
      pg_codes: "cod",
      delivery_mode: "none",
      editable_amount: "on",
    };
    const refused = await app.request("/en/payment-request/create", {
      form: { ...fields, min_amount: "4.000", max_amount: "3.000" },
      cookie,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The minimum cannot be above the maximum.");

    const created = await app.request("/en/payment-request/create", {
      form: { ...fields, min_amount: "1.500", max_amount: "7.000" },
      cookie,
    });
    expect(created.status).toBe(302);
    const details = plain(await (await app.request(created.headers.get("Location")!, { cookie })).text());
    expect(details).toContain("KWD 1.500 – KWD 7.000");
  });
});
