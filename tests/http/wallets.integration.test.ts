import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { IDENTITY_CERTIFICATE, IDENTITY_KEY } from "../support/wallet-fixtures";

/** Apple Pay and Google Pay over HTTP: the operator's settings, Apple's files and endpoints, and what the pay page's script calls. */
let database: TestDatabase;
let app: TestApp;
let alpha: Awaited<ReturnType<typeof seedMerchant>>;
let token: string;
const ASSOCIATION = "7B227073704964223A2241424344454647"; // as Apple gives it: hexadecimal text

beforeAll(async () => {
  database = await createTestDatabase();
  alpha = await seedMerchant(database.db, "Alpha");
  await database.db.updateTable("users").set({ is_operator: 1 }).where("id", "=", alpha.admin.id).execute();
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  token = (await app.apiToken(alpha.admin.username, DEMO_PASSWORD)).access;
});
afterAll(async () => database?.destroy());

async function createRequest(pgCodes: string[] = ["knet-sandbox"]) {
  const response = await app.request("/api/v1/plugins/payment_request/transaction", {
    json: { amount: "12.500", currency_code: "KWD", customer_first_name: "Fatima", pg_codes: pgCodes },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

const settingsForm = (fields: Record<string, string> = {}) => ({
  apple_merchant_identifier: "merchant.com.example.pay",
  apple_display_name: "Example Pay",
  apple_domain_association: ASSOCIATION,
  apple_certificate: IDENTITY_CERTIFICATE,
  apple_key: IDENTITY_KEY,
  google_merchant_id: "",
  ...fields,
});

describe("the operator's wallet settings and Apple's domain association file", () => {
  it("serves no file before one is entered, then the file as entered, as plain text", async () => {
    const none = await app.request("/.well-known/apple-developer-merchantid-domain-association");
    expect(none.status).toBe(404);
    expect(none.headers.get("Content-Type")).toContain("text/plain");

    const operator = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const saved = await app.request("/en/operator/wallets", { cookie: operator, form: settingsForm() });
    expect(saved.status).toBe(302);
    const file = await app.request("/.well-known/apple-developer-merchantid-domain-association");
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("text/plain");
    expect(await file.text()).toBe(ASSOCIATION);

    const page = await (await app.request("/ar/operator/wallets", { cookie: operator })).text();
    expect(page).toContain("الدفع بالمحافظ الرقمية");
    expect(page).toContain("merchant.com.example.pay");
    // The key is never sent back (only the form's placeholder names it).
    expect(page).not.toContain(IDENTITY_KEY.split("\n")[1]);
  });

  it("is the operator's alone, and refuses a wrong field with its message in the page's language, changing nothing", async () => {
    const staff = await app.signIn(alpha.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/operator/wallets", { cookie: staff })).status).toBe(404);
    expect(
      (
        await app.request("/en/operator/wallets", {
          cookie: staff,
          form: settingsForm({ apple_domain_association: "stolen" }),
        })
      ).status,
    ).toBe(404);
    const operator = await app.signIn(alpha.admin.username, DEMO_PASSWORD);
    const refused = await app.request("/ar/operator/wallets", {
      cookie: operator,
      form: settingsForm({ apple_merchant_identifier: "com.example", apple_domain_association: "changed" }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("أدخل معرّفًا يبدأ بـ merchant.");
    expect(await (await app.request("/.well-known/apple-developer-merchantid-domain-association")).text()).toBe(
      ASSOCIATION,
    );
  });
});

describe("the stand-in for Apple's merchant validation (sandbox mode)", () => {
  it("answers a merchant session for the merchant identifier, display name, initiative web and the domain", async () => {
    const response = await app.request("/sandbox/apple-pay/paymentservices/paymentSession", {
      json: {
        merchantIdentifier: "merchant.com.example.pay",
        displayName: "Example Pay",
        initiative: "web",
        initiativeContext: "pay.example",
      },
    });
    expect(response.status).toBe(200);
    const session = await response.json();
    expect(session).toMatchObject({
      domainName: "pay.example",
      displayName: "Example Pay",
      merchantSessionIdentifier: expect.stringMatching(/^SSH[0-9A-F]{32}$/),
    });
  });

  it("refuses what Apple refuses: another initiative, no domain", async () => {
    for (const json of [
      {
        merchantIdentifier: "merchant.com.example.pay",
        displayName: "Example Pay",
        initiative: "messaging",
        initiativeContext: "pay.example",
      },
      { merchantIdentifier: "merchant.com.example.pay", displayName: "Example Pay", initiative: "web" },
    ]) {
      expect((await app.request("/sandbox/apple-pay/paymentservices/paymentSession", { json })).status).toBe(400);
    }
  });
});

describe("the pay page's wallet endpoints, for a link whose methods take no wallet", () => {
  it("show no wallet on the page nor in the pay API", async () => {
    const { id } = await createRequest();
    for (const response of [await app.requestPayPage(`/en/pay/${id}`), await app.request(`/ar/pay/${id}`)]) {
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain("data-wallets");
    }
    const api = await (await app.request(`/api/v1/plugins/payment_request/transaction/pay/${id}`)).json();
    expect(api).toHaveProperty("apple_pay_config", null);
  });

  it("refuse a merchant session, even for Apple's own URL", async () => {
    const { id } = await createRequest();
    const response = await app.request(`/ar/pay/${id}/wallet/session`, {
      json: { validation_url: "https://apple-pay-gateway.apple.com/paymentservices/paymentSession" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      non_field_errors: ["لا يمكن استخدام هذه المحفظة لهذه الدفعة. اختر طريقة أخرى."],
    });
  });

  it("refuse to pay with a token through a gateway without wallets, or an unknown wallet, starting no attempt", async () => {
    const { id } = await createRequest();
    const paid = await app.request(`/en/pay/${id}/wallet/pay`, {
      json: { provider: "apple_pay", gateway_code: "knet-sandbox", token: { paymentData: {} }, total: "12.850" },
    });
    expect(paid.status).toBe(400);
    expect(await paid.json()).toEqual({ gateway_code: ["Choose a payment method"] });
    const unknown = await app.request(`/en/pay/${id}/wallet/pay`, {
      json: { provider: "samsung_pay", gateway_code: "knet-sandbox", token: "x", total: "12.850" },
    });
    expect(unknown.status).toBe(400);
    const missing = await app.request(`/en/pay/0000000000000000000000/wallet/pay`, {
      json: { provider: "apple_pay", gateway_code: "knet-sandbox", token: "x", total: "12.850" },
    });
    expect(missing.status).toBe(404);
    const attempts = await database.db
      .selectFrom("payment_attempts")
      .select("id")
      .where("transaction_id", "=", id)
      .execute();
    expect(attempts).toEqual([]);
  });

  it("log a canceled payment sheet and change nothing", async () => {
    const { id } = await createRequest();
    const logged = await app.request(`/en/pay/${id}/wallet/log`, { json: { provider: "apple_pay", event: "cancel" } });
    expect(logged.status).toBe(204);
    // The line it writes is read in tests/http/observability.integration.test.ts, from the server's output.
    const row = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe("created");
  });
});
