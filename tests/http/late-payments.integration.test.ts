import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { sessionCookieFrom } from "../support/http-app";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { reconcilePayments } from "~/domain/payments/reconciler.server";
import { advanceClock, resetClock } from "~/lib/clock.server";

/**
 * Money the gateway took is a fact, whatever the platform had recorded before: a capture in a
 * second tab after a cancel in the first, two payments of one request, a payment after the link
 * was canceled or deleted. Each is recorded, shown, and can be given back from the platform.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let adminToken = "";
const noRedirect = { redirect: "manual" as const };
const form = { "Content-Type": "application/x-www-form-urlencoded" };

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Late");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  const token = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: shop.admin.username, password: DEMO_PASSWORD }),
  });
  adminToken = ((await token.json()) as { access: string }).access;
});

afterEach(() => resetClock());

afterAll(async () => {
  await server?.close();
  await database?.destroy();
  vi.restoreAllMocks();
});

const addresses = () => ({ publicBaseUrl: server.url, internalBaseUrl: server.url });

async function newRequest(amount: string) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({
      amount,
      pg_codes: "knet-sandbox,mpgs-sandbox",
      customer_email: "late@example.com",
    }),
    baseUrl: server.url,
    lang: "en",
  });
  if (!created.ok) throw new Error("could not create");
  return created.transaction.id;
}

async function payNow(transactionId: string, gatewayCode: string) {
  const response = await fetch(`${server.url}/en/pay/${transactionId}`, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ gateway_code: gatewayCode, submission_token: `${transactionId}-${Math.random()}` }),
    ...noRedirect,
  });
  expect(response.status).toBe(303);
  const attempt = await database.db
    .selectFrom("payment_attempts")
    .select(["id", "track_id", "total"])
    .where("transaction_id", "=", transactionId)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  return { gatewayUrl: response.headers.get("Location")!, attempt };
}

/** Opens the KNET page the gateway URL leads to: each call is another tab (KNET opens a new payment page each time). */
async function openKnetTab(gatewayUrl: string) {
  const init = await fetch(gatewayUrl, noRedirect);
  expect(init.status).toBe(303);
  return new URL(init.headers.get("Location")!, gatewayUrl).toString();
}

/** Submit a card, or Cancel, on a KNET tab; answers where KNET sends the browser once its server has posted the result. */
async function onKnetTab(pageUrl: string, card: string | null) {
  const submitted = await fetch(pageUrl, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams(card ? { intent: "submit", cardNumber: card, pin: "1234" } : { intent: "cancel" }),
    ...noRedirect,
  });
  expect(submitted.status).toBe(303);
  return submitted.headers.get("Location")!;
}

async function payByCard(gatewayUrl: string) {
  const paid = await fetch(gatewayUrl, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
    ...noRedirect,
  });
  expect(paid.status).toBe(303);
  return paid.headers.get("Location")!;
}

async function books(transactionId: string) {
  const transaction = await database.db
    .selectFrom("transactions")
    .select(["state", "paid_amount", "deleted_at", "paid_late", "paid_attempt_id"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  const ledger = await database.db
    .selectFrom("ledger_entries")
    .select(["kind", "amount"])
    .where("transaction_id", "=", transactionId)
    .orderBy("id")
    .execute();
  const receipts = await database.db
    .selectFrom("outgoing_mail")
    .select("id")
    .where("to_address", "=", "late@example.com")
    .where("subject", "like", "Payment received%")
    .execute();
  return { ...transaction, ledger, receipts: receipts.length };
}

const attemptState = async (id: string) =>
  (await database.db.selectFrom("payment_attempts").select("state").where("id", "=", id).executeTakeFirstOrThrow())
    .state;

describe("a capture after a cancel of the same attempt (the gateway's page in two tabs)", () => {
  it("is recorded when the second tab comes back: ledger, paid, receipt, and no Pay Now again", async () => {
    const id = await newRequest("8.000");
    const receiptsBefore = (await books(id)).receipts;
    const { gatewayUrl, attempt } = await payNow(id, "knet-sandbox");
    const first = await openKnetTab(gatewayUrl);
    const second = await openKnetTab(gatewayUrl);
    await fetch(await onKnetTab(first, null), noRedirect);
    expect(await attemptState(attempt.id)).toBe("canceled");
    expect((await books(id)).state).toBe("attempted");

    // KNET's server posts the capture to responseURL: recorded then, the browser only shows it.
    const back = await onKnetTab(second, "8888880000000001");
    expect(back).toBe(`${server.url}/en/pay/attempt-detail/${attempt.id}`);
    expect(await attemptState(attempt.id)).toBe("success");
    expect(await books(id)).toMatchObject({
      state: "paid",
      paid_amount: 8000,
      paid_attempt_id: attempt.id,
      ledger: [{ kind: "payment", amount: 8000 }],
      receipts: receiptsBefore + 1,
    });
    const page = await (await fetch(`${server.url}/en/pay/${id}`)).text();
    expect(page).not.toContain('name="gateway_code"');
  });

  it("is found by the reconciler when KNET's result never reaches the platform", async () => {
    const id = await newRequest("6.000");
    const { gatewayUrl, attempt } = await payNow(id, "knet-sandbox");
    const first = await openKnetTab(gatewayUrl);
    const second = await openKnetTab(gatewayUrl);
    await fetch(await onKnetTab(first, null), noRedirect);
    // The second tab's payment is captured at KNET, and its post to responseURL is lost with the
    // process that would have sent it (a crash between KNET's capture and its delivery).
    await database.db
      .updateTable("sandbox_knet_payments")
      .set({
        result: "CAPTURED",
        tran_id: "7000000000000001",
        auth_code: "123456",
        reference_id: "700000000001",
        post_date: "0101",
        completed_at: new Date().toISOString(),
      })
      .where("payment_id", "=", new URL(second).searchParams.get("PaymentID")!)
      .execute();
    expect(await attemptState(attempt.id)).toBe("canceled");

    await reconcilePayments(database.db, addresses());
    expect(await attemptState(attempt.id)).toBe("canceled"); // not yet: the customer and the gateway get their time first
    advanceClock(3 * 60_000);
    await reconcilePayments(database.db, addresses());
    expect(await attemptState(attempt.id)).toBe("success");
    expect(await books(id)).toMatchObject({
      state: "paid",
      paid_amount: 6000,
      ledger: [{ kind: "payment", amount: 6000 }],
    });
  });
});

async function signIn() {
  const response = await fetch(`${server.url}/en/login`, {
    method: "POST",
    headers: { Origin: server.url, ...form },
    body: new URLSearchParams({ intent: "login", username: shop.admin.username, password: DEMO_PASSWORD }),
    ...noRedirect,
  });
  const cookie = sessionCookieFrom(response);
  if (!cookie) throw new Error(`Sign-in failed: HTTP ${response.status}`);
  return cookie;
}

describe("a request paid twice", () => {
  it("keeps both payments, shows the duplicate on the details page and refunds it from there", async () => {
    const id = await newRequest("3.500");
    const first = await payNow(id, "knet-sandbox");
    const second = await payNow(id, "mpgs-sandbox");
    await fetch(await onKnetTab(await openKnetTab(first.gatewayUrl), "8888880000000001"), noRedirect);
    await fetch(new URL(await payByCard(second.gatewayUrl), server.url), noRedirect);
    const paid = await books(id);
    expect(paid).toMatchObject({ state: "paid", paid_attempt_id: first.attempt.id });
    expect(paid.ledger).toEqual([
      { kind: "payment", amount: 3500 },
      { kind: "payment", amount: second.attempt.total },
    ]);

    const cookie = await signIn();
    const detailsUrl = `${server.url}/en/payment-request/transactions/${id}`;
    const details = await (await fetch(detailsUrl, { headers: { Cookie: cookie } })).text();
    expect(details).toContain("Paid more than once");
    expect(details).toContain("Refund duplicate payment");

    const dialogUrl = `${detailsUrl}?operation=refund&attempt=${second.attempt.id}`;
    const dialog = await (await fetch(dialogUrl, { headers: { Cookie: cookie } })).text();
    expect(dialog).toContain("Refund the duplicate payment of order");
    const post = (step: string) =>
      fetch(dialogUrl, {
        method: "POST",
        headers: { Origin: server.url, Cookie: cookie, ...form },
        body: new URLSearchParams({
          intent: "operation",
          id,
          kind: "refund",
          attempt: second.attempt.id,
          amount: "",
          step,
        }),
        ...noRedirect,
      });
    expect((await post("review")).status).toBe(200);
    expect((await post("confirm")).status).toBe(302);

    const after = await books(id);
    expect(after).toMatchObject({ state: "paid", paid_amount: 3500 });
    expect(after.ledger.at(-1)).toEqual({ kind: "refund", amount: second.attempt.total });
    const gateway = await database.db
      .selectFrom("sandbox_mpgs_orders")
      .select(["status", "total_refunded"])
      .where("order_id", "=", second.attempt.track_id)
      .executeTakeFirstOrThrow();
    expect(gateway).toEqual({ status: "REFUNDED", total_refunded: second.attempt.total });
    // Nothing is left to give back, and the transaction's own payment is untouched.
    expect((await post("review")).status).toBe(400);
    const own = await database.db
      .selectFrom("transactions")
      .select(["refunded_amount", "captured_amount"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(own).toEqual({ refunded_amount: 0, captured_amount: 3500 });
  });

  it("refunds a duplicate payment through the API with its attempt_id", async () => {
    const id = await newRequest("2.250");
    const first = await payNow(id, "knet-sandbox");
    const second = await payNow(id, "knet-sandbox");
    await fetch(await onKnetTab(await openKnetTab(first.gatewayUrl), "8888880000000001"), noRedirect);
    await fetch(await onKnetTab(await openKnetTab(second.gatewayUrl), "8888880000000001"), noRedirect);
    const detailsResponse = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/details/${id}/`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const detailsBody = (await detailsResponse.json()) as {
      duplicate_payments: { attempt_id: string; refundable_amount: string }[];
    };
    expect(detailsBody.duplicate_payments).toEqual([
      expect.objectContaining({ attempt_id: second.attempt.id, refundable_amount: "2.250" }),
    ]);

    const refund = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ amount: "1.000", attempt_id: second.attempt.id }),
    });
    expect(refund.status).toBe(200);
    const refunds = await database.db
      .selectFrom("transaction_operations")
      .select(["attempt_id", "amount", "state"])
      .where("transaction_id", "=", id)
      .execute();
    expect(refunds).toEqual([{ attempt_id: second.attempt.id, amount: 1000, state: "succeeded" }]);
    const knetRefunds = await database.db
      .selectFrom("sandbox_knet_payments")
      .select(["amount"])
      .where("action", "=", "2")
      .where("udf", "like", "%transid%")
      .execute();
    expect(knetRefunds.map((row) => row.amount)).toContain("1.000");
  });
});

describe("a payment after the link was canceled or deleted", () => {
  it("pays a canceled link, flagged, and the merchant can refund it", async () => {
    const id = await newRequest("4.000");
    const { gatewayUrl } = await payNow(id, "knet-sandbox");
    const tab = await openKnetTab(gatewayUrl);
    const cancel = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/actions/${id}/cancel/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(cancel.status).toBe(200);
    expect((await books(id)).state).toBe("canceled");
    await fetch(await onKnetTab(tab, "8888880000000001"), noRedirect);
    expect(await books(id)).toMatchObject({
      state: "paid",
      paid_late: "canceled",
      ledger: [{ kind: "payment", amount: 4000 }],
    });
    const actions = (await (
      await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/actions/${id}/`, {
        headers: { Authorization: `Bearer ${adminToken}` },
      })
    ).json()) as { value: string }[];
    expect(actions.map((action) => action.value)).toContain("refund");
  });

  it("brings a deleted request back to the list, flagged", async () => {
    const id = await newRequest("5.000");
    const { gatewayUrl } = await payNow(id, "knet-sandbox");
    const tab = await openKnetTab(gatewayUrl);
    const deleted = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/actions/${id}/delete/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(deleted.status).toBe(200);
    expect((await books(id)).deleted_at).not.toBeNull();
    await fetch(await onKnetTab(tab, "8888880000000001"), noRedirect);
    expect(await books(id)).toMatchObject({ state: "paid", deleted_at: null, paid_late: "deleted" });
    const list = (await (
      await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/?per_page=100`, {
        headers: { Authorization: `Bearer ${adminToken}` },
      })
    ).json()) as {
      results: { id: string; paid_late: string | null }[];
    };
    expect(list.results.find((row) => row.id === id)).toMatchObject({ paid_late: "deleted" });
  });
});
