import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { platformUrls } from "~/domain/payments/attempts.server";
import { platformAddresses } from "~/web/addresses.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";

/**
 * `/gateway/<kind>/<leg>/<attempt id>`: one route family for every gateway's messages. A message
 * reaches only a leg the attempt's own gateway has, by a method that leg takes; anything else is
 * not found or not allowed, and changes nothing.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Route");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

const manual = { redirect: "manual" as const };

/** A KNET attempt started from the pay page: pending, the customer on KNET's page. */
async function pendingKnetAttempt() {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({
      amount: "3.250",
      pg_codes: "knet-sandbox",
      customer_email: "route@example.com",
    }),
    baseUrl: server.url,
    lang: "ar",
  });
  if (!created.ok) throw new Error("could not create");
  const id = created.transaction.id;
  const started = await fetch(`${server.url}/ar/pay/${id}`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ gateway_code: "knet-sandbox", submission_token: `${id}-route` }),
    ...manual,
  });
  expect(started.status).toBe(303);
  return database.db
    .selectFrom("payment_attempts")
    .select(["id", "state", "lang"])
    .where("transaction_id", "=", id)
    .executeTakeFirstOrThrow();
}

const stateOf = async (attemptId: string) =>
  (
    await database.db
      .selectFrom("payment_attempts")
      .select("state")
      .where("id", "=", attemptId)
      .executeTakeFirstOrThrow()
  ).state;

describe("the gateway route family", () => {
  it("answers only the legs the attempt's own gateway has", async () => {
    const attempt = await pendingKnetAttempt();
    const post = (path: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "ErrorText=x",
        ...manual,
      });
    // KNET has no notification leg; no kind is called "paypal"; the attempt is KNET's, not cash's.
    expect((await post(`/gateway/knet/notify/${attempt.id}`)).status).toBe(404);
    expect((await post(`/gateway/paypal/response/${attempt.id}`)).status).toBe(404);
    expect((await post(`/gateway/cod/response/${attempt.id}`)).status).toBe(404);
    expect((await post(`/gateway/knet/response/no-such-attempt`)).status).toBe(404);
    expect((await post(`/gateway/knet/constructor/${attempt.id}`)).status).toBe(404);
    expect((await post(`/gateway/knet/__proto__/${attempt.id}`)).status).toBe(404);
    expect(await stateOf(attempt.id)).toBe("pending");
  });

  it("sends a browser that lands on KNET's server-to-server address to the result page, in the attempt's language", async () => {
    const attempt = await pendingKnetAttempt();
    const landed = await fetch(`${server.url}/gateway/knet/response/${attempt.id}?result=CAPTURED`, manual);
    expect(landed.status).toBe(303);
    expect(landed.headers.get("Location")).toBe(`${server.url}/ar/pay/attempt-detail/${attempt.id}`);
    expect(await stateOf(attempt.id)).toBe("pending");
  });

  it("answers KNET's unreadable or oversized post in plain text, which KNET takes as a refusal", async () => {
    const attempt = await pendingKnetAttempt();
    const huge = await fetch(`${server.url}/gateway/knet/response/${attempt.id}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `trandata=${"a".repeat(70 * 1024)}`,
      ...manual,
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await huge.text()).not.toMatch(/^REDIRECT=/);
    expect(await stateOf(attempt.id)).toBe("pending");
  });

  it("asks KNET itself when the browser comes back to errorURL, whatever the browser says", async () => {
    const attempt = await pendingKnetAttempt();
    const back = await fetch(`${server.url}/gateway/knet/error/${attempt.id}?result=CAPTURED&amt=3.250`, manual);
    expect(back.status).toBe(303);
    expect(back.headers.get("Location")).toBe(`${server.url}/ar/pay/attempt-detail/${attempt.id}`);
    // KNET's books have no payment for this track id yet: the attempt is still pending, not paid.
    expect(await stateOf(attempt.id)).toBe("pending");
  });
});

describe("the addresses a gateway is given", () => {
  it("never take the notification address from the Host header the payer writes", () => {
    // A request as the server sees one whose Host the payer forged (no BASE_URL configured).
    const addresses = platformAddresses(new Request("http://attacker.example/en/pay/abc", { method: "POST" }));
    const urls = platformUrls(addresses, "attempt-1", "mpgs");
    // The browser goes back where it came from (its own business); the gateway's server, which
    // carries the notification secret, is sent only to this installation's configured address.
    expect(urls.response).toBe("http://attacker.example/gateway/mpgs/response/attempt-1");
    expect(urls.notify).not.toContain("attacker.example");
    expect(urls.notify).toBe(`${addresses.internalBaseUrl}/gateway/mpgs/notify/attempt-1`);
  });
});
