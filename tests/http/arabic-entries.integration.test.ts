import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startHttpServer, type TestHttpServer } from "../support/http-server";

/**
 * What an Arabic reader sees of the audit log: who acted (a customer at the gateway, a visitor
 * who failed to sign in, the platform) in Arabic, never a raw "anonymous"; gateways by their
 * Arabic names, never their codes; dates with the Arabic comma. The same entries in English.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let token = "";
const noRedirect = { redirect: "manual" as const };

type Action = { actor: string; action: string; display_name: string; description: string };

const actions = async (lang: "en" | "ar") => {
  const response = await fetch(`${server.url}/api/v1/user/actions/?limit=50`, {
    headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: Action[] }).results;
};

async function signIn(username: string, password: string, lang = "en") {
  return fetch(`${server.url}/${lang}/login`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "login", username, password }),
    ...noRedirect,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Souq");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  const response = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: shop.admin.username, password: DEMO_PASSWORD }),
  });
  token = ((await response.json()) as { access: string }).access;

  // A wrong password for the admin, then a card payment the customer makes at the gateway.
  expect((await signIn(shop.admin.username, "not-the-password")).status).toBe(400);
  const created = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ amount: "12.500", pg_codes: ["mpgs-sandbox"], customer_email: "noura@example.com" }),
  });
  const id = ((await created.json()) as { id: string }).id;
  const start = await fetch(`${server.url}/ar/pay/${id}`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `pay-${id}` }),
    ...noRedirect,
  });
  const gatewayUrl = start.headers.get("Location")!;
  const page = await fetch(gatewayUrl, {
    method: "POST",
    headers: { Origin: new URL(gatewayUrl).origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
    ...noRedirect,
  });
  await fetch(new URL(page.headers.get("Location")!, gatewayUrl), noRedirect);
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

describe("the audit log in the reader's language", () => {
  it("tells a visitor's failed sign-in from a customer's payment, in Arabic", async () => {
    const entries = await actions("ar");
    const failed = entries.find((entry) => entry.action === "sign_in_failed");
    const paid = entries.find((entry) => entry.action === "payment_success");
    expect(failed?.actor).toBe("زائر (لم يسجّل الدخول)");
    expect(paid?.actor).toBe("العميل (عبر بوابة الدفع)");
    expect(paid?.description).toContain("بطاقة ائتمان");
    for (const entry of entries) {
      expect(entry.actor).not.toBe("anonymous");
      expect(entry.description).not.toContain("mpgs-sandbox");
    }
  });

  it("says the same in English", async () => {
    const entries = await actions("en");
    expect(entries.find((entry) => entry.action === "sign_in_failed")?.actor).toBe("Visitor (not signed in)");
    const paid = entries.find((entry) => entry.action === "payment_success");
    expect(paid?.actor).toBe("Customer (via the gateway)");
    expect(paid?.description).toContain("Credit Card");
  });

  it("writes the home page's dates with the Arabic comma", async () => {
    const response = await signIn(shop.admin.username, DEMO_PASSWORD, "ar");
    const cookie = response.headers
      .getSetCookie()
      .map((header) => /^(kp_session=[^;]+)/.exec(header)?.[1])
      .find(Boolean)!;
    const html = await (await fetch(`${server.url}/ar`, { headers: { Cookie: cookie } })).text();
    expect(html).toContain("زائر (لم يسجّل الدخول)");
    expect(html).toMatch(/\d{4}، \d{2}:\d{2}/);
    expect(html).not.toMatch(/\d{4}, \d{2}:\d{2}/);
  });
});
