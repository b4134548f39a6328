import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { apiKeyWith, createCheckoutSession, payCheckoutSession, startCardAttempt } from "../support/checkout-session-fixtures";

/**
 * The operations API a merchant's server calls on its checkout sessions: refunds, captures and
 * voids through the platform's one operation path (sandbox card payments made for real), cancel
 * and expire of unpaid sessions, the Tracking-Key that answers a repeated call with its first
 * result, the merchant's approvals, and nothing of another merchant's.
 */
let database: TestDatabase;
let server: TestHttpServer;
type Merchant = Awaited<ReturnType<typeof seedMerchant>>;
let shop: Merchant;
let other: Merchant;
let manual: Merchant;
let careful: Merchant;
const keys = { shop: "", readOnly: "", other: "", manual: "", careful: "" };
let orderSeq = 0;

const PATH = "/api/v1/checkout/v1/operation/";

function operate(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${PATH}`, {
    method: "POST",
    headers: { Authorization: `Api-Key ${key}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, replayed: response.headers.get("Idempotent-Replayed") };
}

/** A session of the merchant for `amount` KWD (minor units), paid by card unless `unpaid`. */
async function session(merchant: Merchant, amount: number, options: { unpaid?: boolean } = {}) {
  const made = await createCheckoutSession(database.db, { merchantId: merchant.merchantId, userId: merchant.admin.id, amount, orderNo: `WEB-${1000 + ++orderSeq}` });
  if (!options.unpaid) await payCheckoutSession(database.db, server.url, made.transactionId);
  return made;
}

/** Money as the transaction and its operations record it. */
async function books(transactionId: string) {
  const row = await database.db.selectFrom("transactions").select(["state", "paid_amount", "captured_amount", "refunded_amount", "voided_amount"]).where("id", "=", transactionId).executeTakeFirstOrThrow();
  const operations = await database.db.selectFrom("transaction_operations").select(["kind", "amount", "state"]).where("transaction_id", "=", transactionId).orderBy("id").execute();
  return { ...row, operations: operations.map((operation) => ({ ...operation, amount: Number(operation.amount) })) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Souq");
  other = await seedMerchant(database.db, "Other");
  manual = await seedMerchant(database.db, "Manual");
  careful = await seedMerchant(database.db, "Careful");
  // The merchant bears the card fee: the customer pays the session's amount, and that is what comes back.
  await database.db.updateTable("gateways").set({ fee_payer: "merchant" }).where("code", "=", "card-sandbox").execute();
  await database.db.updateTable("gateways").set({ capture_mode: "manual" }).where("merchant_id", "=", manual.merchantId).where("code", "=", "card-sandbox").execute();
  await database.db.updateTable("merchants").set({ operations_approval: 1 }).where("id", "=", careful.merchantId).execute();
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  keys.shop = await apiKeyWith(database.db, { ...shop.admin, merchantId: shop.merchantId }, ["payment_request"]);
  keys.readOnly = await apiKeyWith(database.db, { ...shop.admin, merchantId: shop.merchantId }, ["payment_request:read", "payment_request:write"]);
  keys.other = await apiKeyWith(database.db, { ...other.admin, merchantId: other.merchantId }, ["payment_request"]);
  keys.manual = await apiKeyWith(database.db, { ...manual.admin, merchantId: manual.merchantId }, ["payment_request"]);
  keys.careful = await apiKeyWith(database.db, { ...careful.admin, merchantId: careful.merchantId }, ["payment_request"]);
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

describe("refunds by a merchant's server", () => {
  it("a repeated refund with the same Tracking-Key answers its first result and refunds once; a new key refunds what is left, then more is refused", async () => {
    const paid = await session(shop, 10_000);
    const first = await answer(await operate(keys.shop, { operation: "refund", order_no: paid.orderNo, amount: "2.000" }, { "Tracking-Key": "refund-1" }));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      operation: "refund",
      session_id: paid.sessionId,
      order_no: paid.orderNo,
      amount: "2.000",
      currency_code: "KWD",
      result: "success",
      detail: expect.stringContaining("2.000"),
      state: "paid",
      paid_amount: "10.000",
      refunded_amount: "2.000",
      approval_request_id: null,
    });
    const again = await answer(await operate(keys.shop, { operation: "refund", order_no: paid.orderNo, amount: "2.000" }, { "Tracking-Key": "refund-1" }));
    expect(again).toEqual({ ...first, replayed: "true" });
    expect((await books(paid.transactionId)).operations).toEqual([{ kind: "refund", amount: 2000, state: "succeeded" }]);

    // The same key for another operation is refused, in the caller's words; nothing moves.
    const reused = await operate(keys.shop, { operation: "refund", order_no: paid.orderNo, amount: "3.000" }, { "Tracking-Key": "refund-1" });
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual({ non_field_errors: ["This Tracking-Key was already used with a different operation; use a new key for a new operation."] });

    const tooMuch = await answer(await operate(keys.shop, { operation: "refund", session_id: paid.sessionId, amount: "9.000" }, { "Tracking-Key": "refund-2" }));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.available_amount).toBe("8.000");
    expect(tooMuch.body.amount).toEqual([tooMuch.body.detail]);
    expect(tooMuch.body.detail).toContain("8.000");

    const rest = await answer(await operate(keys.shop, { operation: "refund", session_id: paid.sessionId }, { "Tracking-Key": "refund-3" }));
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ amount: "8.000", result: "success", state: "refunded", refunded_amount: "10.000", paid_amount: "10.000" });

    const nothingLeft = await answer(await operate(keys.shop, { operation: "refund", order_no: paid.orderNo, amount: "1.000" }, { "Tracking-Key": "refund-4" }));
    expect(nothingLeft.status).toBe(400);
    expect(nothingLeft.body.available_amount).toBe("0.000");
    const money = await books(paid.transactionId);
    expect(money).toMatchObject({ state: "refunded", refunded_amount: 10_000 });
    expect(money.operations.map((operation) => operation.amount)).toEqual([2000, 8000]);

    // Written in the audit log as the dashboard's refunds are, under the key's own name.
    const audit = await database.db.selectFrom("audit_log").select(["action", "actor_name"]).where("object_id", "=", paid.transactionId).where("action", "=", "transaction_refund").execute();
    expect(audit).toHaveLength(2);
    expect(audit.every((entry) => entry.actor_name.startsWith("api-key:"))).toBe(true);
  });

  it("the same Tracking-Key sent several times at once refunds once, and every answer that is not still in progress is the first", async () => {
    const paid = await session(shop, 5_000);
    const calls = await Promise.all(Array.from({ length: 6 }, () => operate(keys.shop, { operation: "refund", order_no: paid.orderNo, amount: "1.500" }, { "Tracking-Key": "burst" }).then(answer)));
    const done = calls.filter((call) => call.status === 200);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(calls.every((call) => call.status === 200 || call.status === 409)).toBe(true);
    for (const call of done) expect(call.body).toEqual(done[0].body);
    const later = await answer(await operate(keys.shop, { operation: "refund", order_no: paid.orderNo, amount: "1.500" }, { "Tracking-Key": "burst" }));
    expect(later.body).toEqual(done[0].body);
    const money = await books(paid.transactionId);
    expect(money.operations).toEqual([{ kind: "refund", amount: 1500, state: "succeeded" }]);
    expect(money.refunded_amount).toBe(1500);
  });

  it("without a Tracking-Key each call acts: two partial refunds", async () => {
    const paid = await session(shop, 4_000);
    for (const expected of ["1.000", "2.000"]) {
      const refund = await answer(await operate(keys.shop, { operation: "refund", session_id: paid.sessionId, amount: "1.000" }));
      expect(refund.status).toBe(200);
      expect(refund.body.refunded_amount).toBe(expected);
    }
    expect((await books(paid.transactionId)).refunded_amount).toBe(2000);
  });

  it("waits for a checker when the merchant requires approval: 202, nothing moved, the request in Operations Requests", async () => {
    const paid = await session(careful, 7_000);
    const asked = await answer(await operate(keys.careful, { operation: "refund", order_no: paid.orderNo, amount: "3.000" }, { "Tracking-Key": "careful-1" }));
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ result: "pending", amount: "3.000", state: "paid", refunded_amount: "0.000", approval_request_id: expect.any(Number) });
    expect(asked.body.detail).toContain("waiting for approval");
    const money = await books(paid.transactionId);
    expect(money.operations).toEqual([]);
    expect(money.refunded_amount).toBe(0);

    const token = await fetch(`${server.url}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: careful.admin.username, password: DEMO_PASSWORD }),
    }).then(async (response) => ((await response.json()) as { access: string }).access);
    const listed = await fetch(`${server.url}/api/v1/plugins/c/oa/processes/operation/`, { headers: { Authorization: `Bearer ${token}` } }).then((response) => response.json());
    expect(listed.count).toBe(1);
    expect(listed.results[0]).toMatchObject({ id: asked.body.approval_request_id, type: "refund", amount: "3.000", status: "NEW" });
  });
});

describe("captures and voids of authorized payments", () => {
  it("captures what was authorized, the amount left out meaning all of it", async () => {
    const authorized = await session(manual, 6_000);
    expect((await books(authorized.transactionId)).state).toBe("authorized");
    const captured = await answer(await operate(keys.manual, { operation: "capture", session_id: authorized.sessionId }, { "Tracking-Key": "capture-1" }));
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ operation: "capture", amount: "6.000", result: "success", state: "paid" });
    expect(await books(authorized.transactionId)).toMatchObject({ state: "paid", captured_amount: 6000 });
  });

  it("voids a whole authorization, and refuses an amount for a void", async () => {
    const authorized = await session(manual, 2_500);
    const withAmount = await answer(await operate(keys.manual, { operation: "void", order_no: authorized.orderNo, amount: "1.000" }));
    expect(withAmount.status).toBe(400);
    expect(withAmount.body).toEqual({ amount: ["A void always releases the whole authorization: send it without an amount."] });
    const voided = await answer(await operate(keys.manual, { operation: "void", order_no: authorized.orderNo }));
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ operation: "void", amount: "2.500", result: "success", state: "voided" });
    expect(await books(authorized.transactionId)).toMatchObject({ state: "voided", voided_amount: 2500 });
  });
});

describe("cancel and expire", () => {
  it("end a session nobody paid; a paid or ended session is refused", async () => {
    const open = await session(shop, 3_000, { unpaid: true });
    const canceled = await answer(await operate(keys.shop, { operation: "cancel", order_no: open.orderNo }));
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ operation: "cancel", amount: null, result: "success", state: "canceled", paid_amount: "0.000" });
    const twice = await answer(await operate(keys.shop, { operation: "cancel", order_no: open.orderNo }));
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toBe("Only an unpaid session can be canceled; its state is Canceled.");

    const other = await session(shop, 3_000, { unpaid: true });
    const expired = await answer(await operate(keys.shop, { operation: "expire", session_id: other.sessionId }));
    expect(expired).toMatchObject({ status: 200, body: { result: "success", state: "expired" } });
    const audit = await database.db.selectFrom("audit_log").select(["action", "actor_name"]).where("object_id", "in", [open.transactionId, other.transactionId]).where("action", "like", "checkout_session_%").orderBy("id").execute();
    expect(audit.map((entry) => entry.action)).toEqual(["checkout_session_canceled", "checkout_session_expired"]);

    const paid = await session(shop, 3_000);
    for (const operation of ["cancel", "expire"]) {
      const refused = await answer(await operate(keys.shop, { operation, session_id: paid.sessionId }, { "Accept-Language": "ar" }));
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toMatch(/غير مدفوعة/);
    }
    expect((await books(paid.transactionId)).state).toBe("paid");
  });

  it("wait while a payment is in flight at the gateway", async () => {
    const paying = await session(shop, 1_000, { unpaid: true });
    await startCardAttempt(server.url, paying.transactionId);
    const refused = await answer(await operate(keys.shop, { operation: "expire", order_no: paying.orderNo }));
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("in progress");
    expect((await books(paying.transactionId)).state).not.toBe("expired");
  });
});

describe("who may operate on what", () => {
  it("another merchant's session is not found, by session_id or order_no, and nothing moves", async () => {
    const theirs = await session(other, 2_000);
    for (const body of [{ session_id: theirs.sessionId }, { order_no: theirs.orderNo }]) {
      const refused = await answer(await operate(keys.shop, { operation: "refund", ...body }, { "Tracking-Key": `theirs-${Object.keys(body)[0]}` }));
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ detail: "No checkout session was found with this session_id or order_no." });
    }
    const arabic = await answer(await operate(keys.shop, { operation: "cancel", session_id: "nothing-like-it" }, { "Accept-Language": "ar" }));
    expect(arabic).toMatchObject({ status: 404, body: { detail: "لم يُعثر على جلسة دفع بهذا المعرّف session_id أو رقم الطلب order_no." } });
    expect(await books(theirs.transactionId)).toMatchObject({ state: "paid", refunded_amount: 0, operations: [] });
    // Their own key does it.
    expect((await operate(keys.other, { operation: "refund", order_no: theirs.orderNo })).status).toBe(200);
  });

  it("a key without the refund grant is refused with 403; a bad request names its fields", async () => {
    const paid = await session(shop, 2_000);
    const refused = await answer(await operate(keys.readOnly, { operation: "refund", session_id: paid.sessionId }));
    expect(refused).toMatchObject({ status: 403, body: { detail: "You do not have permission to perform this action." } });
    expect((await books(paid.transactionId)).operations).toEqual([]);

    const bad = await answer(await operate(keys.shop, { operation: "rebate", amount: { value: 1 } }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(["amount", "non_field_errors", "operation"]);
    const wrongMethod = await fetch(`${server.url}${PATH}`, { headers: { Authorization: `Api-Key ${keys.shop}` } });
    expect(wrongMethod.status).toBe(405);
    const withoutKey = await fetch(`${server.url}/api/v1/checkout/v1/operation`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ operation: "refund", session_id: paid.sessionId }) });
    expect(withoutKey.status).toBe(401);
  });
});
