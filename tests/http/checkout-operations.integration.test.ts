import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { writeTransaction } from "~/db/database.server";
import { decideOperationRequest, reserveOperation } from "~/domain/payments/operations.server";
import { findMerchantGateway, toGatewayConfig } from "~/domain/payments/gateway-settings.server";
import { adapterFor } from "~/domain/payments/gateways/registry";
import { setDeleted } from "~/domain/payments/lifecycle.server";
import { operationReferenceOf, requestHashOf, storedKeyOf, type KeyCaller } from "~/web/idempotency.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import {
  apiKeyWith,
  createCheckoutSession,
  finishCardAttempt,
  payCheckoutSession,
  startCardAttempt,
} from "../support/checkout-session-fixtures";

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
let gone: Merchant;
const keys = { shop: "", readOnly: "", refundOnly: "", other: "", manual: "", careful: "", gone: "" };
let orderSeq = 0;

const PATH = "/api/v1/checkout/v1/operation/";

function operate(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}, path = PATH) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      Authorization: key.startsWith("Bearer ") ? key : `Api-Key ${key}`,
      "Content-Type": "application/json",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A person's bearer token, as the dashboard's users get one from the API. */
async function bearerOf(merchant: Merchant) {
  const token = await fetch(`${server.url}/api/v1/user/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: merchant.admin.username, password: DEMO_PASSWORD }),
  }).then(async (response) => ((await response.json()) as { access: string }).access);
  return `Bearer ${token}`;
}

const addresses = () => ({ publicBaseUrl: server.url, internalBaseUrl: server.url });

/** The actor the platform's own code is given for a merchant's superuser. */
const superuser = (merchant: Merchant) => ({
  ...merchant.admin,
  merchantId: merchant.merchantId,
  is_superuser: 1,
  permissions: [] as string[],
});

async function answer(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    replayed: response.headers.get("Idempotent-Replayed"),
  };
}

/** A session of the merchant for `amount` KWD (minor units), paid by card unless `unpaid`. */
async function session(merchant: Merchant, amount: number, options: { unpaid?: boolean } = {}) {
  const made = await createCheckoutSession(database.db, {
    merchantId: merchant.merchantId,
    userId: merchant.admin.id,
    amount,
    orderNo: `WEB-${1000 + ++orderSeq}`,
  });
  if (!options.unpaid) await payCheckoutSession(database.db, server.url, made.transactionId);
  return made;
}

/** Money as the transaction and its operations record it. */
async function books(transactionId: string) {
  const row = await database.db
    .selectFrom("transactions")
    .select(["state", "paid_amount", "captured_amount", "refunded_amount", "voided_amount"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  const operations = await database.db
    .selectFrom("transaction_operations")
    .select(["kind", "amount", "state"])
    .where("transaction_id", "=", transactionId)
    .orderBy("id")
    .execute();
  return { ...row, operations: operations.map((operation) => ({ ...operation, amount: Number(operation.amount) })) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Souq");
  other = await seedMerchant(database.db, "Other");
  manual = await seedMerchant(database.db, "Manual");
  careful = await seedMerchant(database.db, "Careful");
  gone = await seedMerchant(database.db, "Gone");
  // The merchant bears the card fee: the customer pays the session's amount, and that is what comes back.
  await database.db.updateTable("gateways").set({ fee_payer: "merchant" }).where("code", "=", "mpgs-sandbox").execute();
  await database.db
    .updateTable("gateways")
    .set({ capture_mode: "manual" })
    .where("merchant_id", "=", manual.merchantId)
    .where("code", "=", "mpgs-sandbox")
    .execute();
  await database.db
    .updateTable("merchants")
    .set({ operations_approval: 1 })
    .where("id", "=", careful.merchantId)
    .execute();
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  keys.shop = await apiKeyWith(database.db, { ...shop.admin, merchantId: shop.merchantId }, ["payment_request"]);
  keys.readOnly = await apiKeyWith(database.db, { ...shop.admin, merchantId: shop.merchantId }, [
    "payment_request:read",
    "payment_request:write",
  ]);
  keys.refundOnly = await apiKeyWith(database.db, { ...shop.admin, merchantId: shop.merchantId }, [
    "payment_request:read",
    "payment_request:refund",
  ]);
  keys.gone = await apiKeyWith(database.db, { ...gone.admin, merchantId: gone.merchantId }, ["payment_request"]);
  keys.other = await apiKeyWith(database.db, { ...other.admin, merchantId: other.merchantId }, ["payment_request"]);
  keys.manual = await apiKeyWith(database.db, { ...manual.admin, merchantId: manual.merchantId }, ["payment_request"]);
  keys.careful = await apiKeyWith(database.db, { ...careful.admin, merchantId: careful.merchantId }, [
    "payment_request",
  ]);
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
});

describe("refunds by a merchant's server", () => {
  it("a repeated refund with the same Tracking-Key answers its first result and refunds once; a new key refunds what is left, then more is refused", async () => {
    const paid = await session(shop, 10_000);
    const first = await answer(
      await operate(
        keys.shop,
        { operation: "refund", order_no: paid.orderNo, amount: "2.000" },
        { "Tracking-Key": "refund-1" },
      ),
    );
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
    const again = await answer(
      await operate(
        keys.shop,
        { operation: "refund", order_no: paid.orderNo, amount: "2.000" },
        { "Tracking-Key": "refund-1" },
      ),
    );
    expect(again).toEqual({ ...first, replayed: "true" });
    expect((await books(paid.transactionId)).operations).toEqual([
      { kind: "refund", amount: 2000, state: "succeeded" },
    ]);

    // The same key for another operation is refused, in the caller's words; nothing moves.
    const reused = await operate(
      keys.shop,
      { operation: "refund", order_no: paid.orderNo, amount: "3.000" },
      { "Tracking-Key": "refund-1" },
    );
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual({
      non_field_errors: [
        "This Tracking-Key was already used with a different operation; use a new key for a new operation.",
      ],
    });

    const tooMuch = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "9.000" },
        { "Tracking-Key": "refund-2" },
      ),
    );
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.available_amount).toBe("8.000");
    expect(tooMuch.body.amount).toEqual([tooMuch.body.detail]);
    expect(tooMuch.body.detail).toContain("8.000");

    const rest = await answer(
      await operate(keys.shop, { operation: "refund", session_id: paid.sessionId }, { "Tracking-Key": "refund-3" }),
    );
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      amount: "8.000",
      result: "success",
      state: "refunded",
      refunded_amount: "10.000",
      paid_amount: "10.000",
    });

    const nothingLeft = await answer(
      await operate(
        keys.shop,
        { operation: "refund", order_no: paid.orderNo, amount: "1.000" },
        { "Tracking-Key": "refund-4" },
      ),
    );
    expect(nothingLeft.status).toBe(400);
    expect(nothingLeft.body.available_amount).toBe("0.000");
    const money = await books(paid.transactionId);
    expect(money).toMatchObject({ state: "refunded", refunded_amount: 10_000 });
    expect(money.operations.map((operation) => operation.amount)).toEqual([2000, 8000]);

    // Written in the audit log as the dashboard's refunds are, under the key's own name.
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name"])
      .where("object_id", "=", paid.transactionId)
      .where("action", "=", "transaction_refund")
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit.every((entry) => entry.actor_name.startsWith("api-key:"))).toBe(true);
  });

  it("the same Tracking-Key sent several times at once refunds once, and every answer that is not still in progress is the first", async () => {
    const paid = await session(shop, 5_000);
    const calls = await Promise.all(
      Array.from({ length: 6 }, () =>
        operate(
          keys.shop,
          { operation: "refund", order_no: paid.orderNo, amount: "1.500" },
          { "Tracking-Key": "burst" },
        ).then(answer),
      ),
    );
    const done = calls.filter((call) => call.status === 200);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(calls.every((call) => call.status === 200 || call.status === 409)).toBe(true);
    for (const call of done) expect(call.body).toEqual(done[0].body);
    const later = await answer(
      await operate(
        keys.shop,
        { operation: "refund", order_no: paid.orderNo, amount: "1.500" },
        { "Tracking-Key": "burst" },
      ),
    );
    expect(later.body).toEqual(done[0].body);
    const money = await books(paid.transactionId);
    expect(money.operations).toEqual([{ kind: "refund", amount: 1500, state: "succeeded" }]);
    expect(money.refunded_amount).toBe(1500);
  });

  it("without a Tracking-Key each call acts: two partial refunds", async () => {
    const paid = await session(shop, 4_000);
    for (const expected of ["1.000", "2.000"]) {
      const refund = await answer(
        await operate(keys.shop, { operation: "refund", session_id: paid.sessionId, amount: "1.000" }),
      );
      expect(refund.status).toBe(200);
      expect(refund.body.refunded_amount).toBe(expected);
    }
    expect((await books(paid.transactionId)).refunded_amount).toBe(2000);
  });

  it("waits for a checker when the merchant requires approval: 202, nothing moved, the request in Operations Requests", async () => {
    const paid = await session(careful, 7_000);
    const asked = await answer(
      await operate(
        keys.careful,
        { operation: "refund", order_no: paid.orderNo, amount: "3.000" },
        { "Tracking-Key": "careful-1" },
      ),
    );
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      result: "pending",
      amount: "3.000",
      state: "paid",
      refunded_amount: "0.000",
      approval_request_id: expect.any(Number),
    });
    expect(asked.body.detail).toContain("waiting for approval");
    const money = await books(paid.transactionId);
    expect(money.operations).toEqual([]);
    expect(money.refunded_amount).toBe(0);

    const token = await fetch(`${server.url}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: careful.admin.username, password: DEMO_PASSWORD }),
    }).then(async (response) => ((await response.json()) as { access: string }).access);
    const listed = await fetch(`${server.url}/api/v1/plugins/c/oa/processes/operation/`, {
      headers: { Authorization: `Bearer ${token}` },
    }).then((response) => response.json());
    expect(listed.count).toBe(1);
    expect(listed.results[0]).toMatchObject({
      id: asked.body.approval_request_id,
      type: "refund",
      amount: "3.000",
      status: "NEW",
    });

    // A second refund waits for the first request to be decided (409), and that answer is not kept
    // under its key: once the request is canceled, the same key asks again.
    const second = await answer(
      await operate(
        keys.careful,
        { operation: "refund", order_no: paid.orderNo, amount: "1.000" },
        { "Tracking-Key": "careful-2" },
      ),
    );
    expect(second.status).toBe(409);
    const canceled = await decideOperationRequest(database.db, {
      merchantId: careful.merchantId,
      actor: superuser(careful),
      requestId: asked.body.approval_request_id as number,
      decision: "cancel",
      addresses: addresses(),
    });
    expect(canceled.ok).toBe(true);
    const retried = await answer(
      await operate(
        keys.careful,
        { operation: "refund", order_no: paid.orderNo, amount: "1.000" },
        { "Tracking-Key": "careful-2" },
      ),
    );
    expect(retried).toMatchObject({
      status: 202,
      replayed: null,
      body: { result: "pending", amount: "1.000", approval_request_id: expect.any(Number) },
    });
    expect(retried.body.approval_request_id).not.toBe(asked.body.approval_request_id);
    expect((await books(paid.transactionId)).refunded_amount).toBe(0);
  });

  it("an Idempotency-Key is read as a Tracking-Key when none is sent, in the same set of keys", async () => {
    const paid = await session(shop, 3_000);
    const first = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "1.000" },
        { "Idempotency-Key": "idem-refund" },
      ),
    );
    expect(first).toMatchObject({ status: 200, replayed: null, body: { amount: "1.000", refunded_amount: "1.000" } });
    const again = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "1.000" },
        { "Idempotency-Key": "idem-refund" },
      ),
    );
    expect(again).toEqual({ ...first, replayed: "true" });
    const asTracking = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "1.000" },
        { "Tracking-Key": "idem-refund" },
      ),
    );
    expect(asTracking).toEqual({ ...first, replayed: "true" });
    expect((await books(paid.transactionId)).operations).toEqual([
      { kind: "refund", amount: 1000, state: "succeeded" },
    ]);
  });

  it("a person's bearer token operates too, at the path without its trailing slash, and the audit log names the person", async () => {
    const paid = await session(shop, 2_000);
    const refund = await answer(
      await operate(
        await bearerOf(shop),
        { operation: "refund", order_no: paid.orderNo, amount: "0.500" },
        {},
        "/api/v1/checkout/v1/operation",
      ),
    );
    expect(refund).toMatchObject({
      status: 200,
      body: { result: "success", amount: "0.500", refunded_amount: "0.500" },
    });
    const audit = await database.db
      .selectFrom("audit_log")
      .select("actor_name")
      .where("object_id", "=", paid.transactionId)
      .where("action", "=", "transaction_refund")
      .execute();
    expect(audit).toEqual([{ actor_name: shop.admin.username }]);
    const byKey = await answer(
      await operate(
        keys.shop,
        { operation: "refund", order_no: paid.orderNo, amount: "0.500" },
        {},
        "/api/v1/checkout/v1/operation",
      ),
    );
    expect(byKey).toMatchObject({ status: 200, body: { refunded_amount: "1.000" } });
  });

  it("finds a session by an order number of up to 100 characters", async () => {
    const orderNo = `LONG-${"9".repeat(95)}`;
    const made = await createCheckoutSession(database.db, {
      merchantId: shop.merchantId,
      userId: shop.admin.id,
      amount: 1_000,
      orderNo,
    });
    await payCheckoutSession(database.db, server.url, made.transactionId);
    const refund = await answer(await operate(keys.shop, { operation: "refund", order_no: orderNo }));
    expect(refund).toMatchObject({ status: 200, body: { order_no: orderNo, amount: "1.000", state: "refunded" } });
    const tooLong = await answer(await operate(keys.shop, { operation: "refund", order_no: `${orderNo}9` }));
    expect(tooLong).toEqual({ status: 400, replayed: null, body: { order_no: ["Enter a valid order number."] } });
  });

  it("a refund the gateway refuses answers 200 with result failed and the gateway's words; its key answers the same again", async () => {
    const paid = await session(shop, 4_000);
    // Refunded at the acquirer by other means: it refuses the platform's refund.
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select(["track_id", "total"])
      .where("transaction_id", "=", paid.transactionId)
      .where("state", "=", "success")
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable("sandbox_mpgs_orders")
      .set({ status: "REFUNDED", total_refunded: attempt.total })
      .where("order_id", "=", attempt.track_id)
      .execute();
    const failed = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "1.000" },
        { "Tracking-Key": "refused-at-gateway" },
      ),
    );
    expect(failed).toMatchObject({
      status: 200,
      body: { result: "failed", amount: "1.000", state: "paid", refunded_amount: "0.000", paid_amount: "4.000" },
    });
    expect(failed.body.detail).toContain("exceeds the amount available for refund");
    const arabic = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "1.000" },
        { "Tracking-Key": "refused-at-gateway-ar", "Accept-Language": "ar" },
      ),
    );
    expect(arabic).toMatchObject({ status: 200, body: { result: "failed" } });
    expect(arabic.body.detail).not.toBe(failed.body.detail);
    expect(arabic.body.detail).toContain("exceeds the amount available for refund");
    const replay = await answer(
      await operate(
        keys.shop,
        { operation: "refund", session_id: paid.sessionId, amount: "1.000" },
        { "Tracking-Key": "refused-at-gateway" },
      ),
    );
    expect(replay).toEqual({ ...failed, replayed: "true" });
    const money = await books(paid.transactionId);
    expect(money.refunded_amount).toBe(0);
    expect(money.operations.map((operation) => operation.state)).toEqual(["failed", "failed"]);
  });

  it("names nothing available when the merchant's gateway that took the payment is gone", async () => {
    const paid = await session(gone, 2_000);
    await database.db
      .deleteFrom("gateways")
      .where("merchant_id", "=", gone.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    const refused = await answer(await operate(keys.gone, { operation: "refund", session_id: paid.sessionId }));
    expect(refused.status).toBe(400);
    expect(refused.body.available_amount).toBe("0.000");
    expect(refused.body.detail).toBeTruthy();
    expect((await books(paid.transactionId)).operations).toEqual([]);
  });

  it("a retry after a crash settles the refund its Tracking-Key began instead of making a second one", async () => {
    const paid = await session(shop, 10_000);
    const key = "refund-after-crash";
    const identity = { operation: "refund", session_id: null, order_no: paid.orderNo, amount: "1.000" };
    // The first call took the key, reserved the refund under the key's reference and sent it; the
    // gateway refunded; the process died before it recorded the answer or the response.
    const apiKey = await database.db
      .selectFrom("api_keys")
      .select("id")
      .where("merchant_id", "=", shop.merchantId)
      .where("name", "=", "Shop server payment_request")
      .executeTakeFirstOrThrow();
    const caller: KeyCaller = { kind: "api_key", apiKeyId: apiKey.id };
    const reference = operationReferenceOf(
      new Request("http://localhost", { headers: { "Tracking-Key": key } }),
      shop.merchantId,
      caller,
      "checkout-operation:checkout.operation",
      "Tracking-Key",
    )!;
    const reserved = await writeTransaction(database.db, (trx) =>
      reserveOperation(trx, {
        merchantId: shop.merchantId,
        actor: superuser(shop),
        transactionId: paid.transactionId,
        kind: "refund",
        amount: "1.000",
        requestId: null,
        reference,
      }),
    );
    expect(reserved.ok).toBe(true);
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select(["gateway_reference", "track_id", "payment_id"])
      .where("transaction_id", "=", paid.transactionId)
      .where("state", "=", "success")
      .executeTakeFirstOrThrow();
    const config = toGatewayConfig(
      (await findMerchantGateway(database.db, shop.merchantId, "mpgs-sandbox"))!,
      addresses(),
    );
    expect(
      await adapterFor("mpgs").refund(
        config,
        { gatewayReference: attempt.gateway_reference, trackId: attempt.track_id, paymentId: attempt.payment_id },
        1000,
        reference,
      ),
    ).toMatchObject({ ok: true });
    await database.db
      .insertInto("idempotency_keys")
      .values({
        merchant_id: shop.merchantId,
        key: storedKeyOf(caller, `checkout-operation:${key}`, ""),
        scope: "checkout.operation",
        request_hash: requestHashOf("checkout.operation", identity),
        response_status: null,
        response_body: null,
        created_at: new Date().toISOString(),
      })
      .execute();

    // Before the key's 60 s lease has run out the retry is told to wait; after it, the retry settles the operation begun.
    const early = await operate(
      keys.shop,
      { operation: "refund", order_no: paid.orderNo, amount: "1.000" },
      { "Tracking-Key": key },
    );
    expect(early.status).toBe(409);
    const moveServerClock = (ms: number) =>
      fetch(`${server.url}/__test/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ms }),
      });
    await moveServerClock(70_000);
    onTestFinished(async () => void (await moveServerClock(-70_000)));
    const retry = await answer(
      await operate(
        keys.shop,
        { operation: "refund", order_no: paid.orderNo, amount: "1.000" },
        { "Tracking-Key": key },
      ),
    );
    expect(retry).toMatchObject({
      status: 200,
      body: { result: "success", amount: "1.000", refunded_amount: "1.000" },
    });
    const money = await books(paid.transactionId);
    expect(money.operations).toEqual([{ kind: "refund", amount: 1000, state: "succeeded" }]);
    expect(money.refunded_amount).toBe(1000);
    const atGateway = await database.db
      .selectFrom("sandbox_mpgs_orders")
      .select("total_refunded as refunded_amount")
      .where("order_id", "=", attempt.track_id)
      .executeTakeFirstOrThrow();
    expect(atGateway.refunded_amount).toBe(1000);
  });
});

describe("captures and voids of authorized payments", () => {
  it("captures what was authorized, the amount left out meaning all of it", async () => {
    const authorized = await session(manual, 6_000);
    expect((await books(authorized.transactionId)).state).toBe("authorized");
    const captured = await answer(
      await operate(
        keys.manual,
        { operation: "capture", session_id: authorized.sessionId },
        { "Tracking-Key": "capture-1" },
      ),
    );
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ operation: "capture", amount: "6.000", result: "success", state: "paid" });
    expect(await books(authorized.transactionId)).toMatchObject({ state: "paid", captured_amount: 6000 });
  });

  it("voids a whole authorization, and refuses an amount for a void", async () => {
    const authorized = await session(manual, 2_500);
    const withAmount = await answer(
      await operate(keys.manual, { operation: "void", order_no: authorized.orderNo, amount: "1.000" }),
    );
    expect(withAmount.status).toBe(400);
    expect(withAmount.body).toEqual({
      amount: ["A void always releases the whole authorization: send it without an amount."],
    });
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
    expect(canceled.body).toMatchObject({
      operation: "cancel",
      amount: null,
      result: "success",
      state: "canceled",
      paid_amount: "0.000",
    });
    const twice = await answer(await operate(keys.shop, { operation: "cancel", order_no: open.orderNo }));
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toBe("Only an unpaid session can be canceled; its state is Canceled.");

    const other = await session(shop, 3_000, { unpaid: true });
    const expired = await answer(await operate(keys.shop, { operation: "expire", session_id: other.sessionId }));
    expect(expired).toMatchObject({ status: 200, body: { result: "success", state: "expired" } });
    // Canceled as the dashboard's Cancel writes it; expired under its own entry, both naming the key's user.
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name", "params"])
      .where("object_id", "in", [open.transactionId, other.transactionId])
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(["transaction_cancel", "checkout_session_expired"]);
    expect(audit.every((entry) => entry.actor_name.startsWith("api-key:"))).toBe(true);
    const orderNumbers = await database.db
      .selectFrom("transactions")
      .select("order_no")
      .where("id", "in", [open.transactionId, other.transactionId])
      .orderBy("order_no")
      .execute();
    expect(audit.map((entry) => JSON.parse(entry.params ?? "{}").orderNo)).toEqual(
      orderNumbers.map((row) => row.order_no),
    );

    const paid = await session(shop, 3_000);
    for (const operation of ["cancel", "expire"]) {
      const refused = await answer(
        await operate(keys.shop, { operation, session_id: paid.sessionId }, { "Accept-Language": "ar" }),
      );
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toMatch(/غير مدفوعة/);
    }
    expect((await books(paid.transactionId)).state).toBe("paid");
  });

  it("wait while a payment is in flight at the gateway, saying when to ask again; the same Tracking-Key acts once the payment ended", async () => {
    const paying = await session(shop, 1_000, { unpaid: true });
    const cardPage = await startCardAttempt(server.url, paying.transactionId);
    const response = await operate(
      keys.shop,
      { operation: "expire", order_no: paying.orderNo },
      { "Tracking-Key": "expire-later" },
    );
    const refused = await answer(response);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("in progress");
    // The platform asks the card gateway again within its grace; never later than its hour's session and the grace.
    const retryAfter = Number(response.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(62 * 60);
    expect((await books(paying.transactionId)).state).not.toBe("expired");
    const again = await operate(
      keys.shop,
      { operation: "expire", order_no: paying.orderNo },
      { "Tracking-Key": "expire-later" },
    );
    expect(again.status).toBe(409);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();

    // The customer's card is declined: nothing is in flight any more, and the same key now expires the session.
    await finishCardAttempt(server.url, cardPage, "5555555555554444");
    const expired = await answer(
      await operate(keys.shop, { operation: "expire", order_no: paying.orderNo }, { "Tracking-Key": "expire-later" }),
    );
    expect(expired).toMatchObject({ status: 200, replayed: null, body: { result: "success", state: "expired" } });
    expect((await books(paying.transactionId)).state).toBe("expired");
  });

  it("are refused with 403 to a key that may refund but not write, and nothing changes", async () => {
    const open = await session(shop, 1_000, { unpaid: true });
    for (const operation of ["cancel", "expire"]) {
      const refused = await answer(
        await operate(
          keys.refundOnly,
          { operation, session_id: open.sessionId },
          { "Tracking-Key": `no-write-${operation}` },
        ),
      );
      expect(refused).toMatchObject({
        status: 403,
        body: { detail: "You do not have permission to perform this action." },
      });
    }
    const state = (await books(open.transactionId)).state;
    expect(["created", "pending"]).toContain(state);
  });

  it("a canceled session deleted from the list afterwards still answers its Tracking-Key with the first result", async () => {
    const open = await session(shop, 1_500, { unpaid: true });
    const first = await answer(
      await operate(
        keys.shop,
        { operation: "cancel", session_id: open.sessionId },
        { "Tracking-Key": "cancel-then-delete" },
      ),
    );
    expect(first).toMatchObject({ status: 200, body: { state: "canceled" } });
    expect(
      await setDeleted(database.db, {
        merchantId: shop.merchantId,
        actor: superuser(shop),
        transactionId: open.transactionId,
        deleted: true,
      }),
    ).toMatchObject({ ok: true });
    const replay = await answer(
      await operate(
        keys.shop,
        { operation: "cancel", session_id: open.sessionId },
        { "Tracking-Key": "cancel-then-delete" },
      ),
    );
    expect(replay).toEqual({ ...first, replayed: "true" });
    const fresh = await answer(
      await operate(
        keys.shop,
        { operation: "cancel", session_id: open.sessionId },
        { "Tracking-Key": "cancel-after-delete" },
      ),
    );
    expect(fresh).toMatchObject({
      status: 404,
      body: { detail: "No checkout session was found with this session_id or order_no." },
    });
  });
});

describe("who may operate on what", () => {
  it("another merchant's session is not found, by session_id or order_no, and nothing moves", async () => {
    const theirs = await session(other, 2_000);
    for (const body of [{ session_id: theirs.sessionId }, { order_no: theirs.orderNo }]) {
      const refused = await answer(
        await operate(
          keys.shop,
          { operation: "refund", ...body },
          { "Tracking-Key": `theirs-${Object.keys(body)[0]}` },
        ),
      );
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ detail: "No checkout session was found with this session_id or order_no." });
    }
    const arabic = await answer(
      await operate(keys.shop, { operation: "cancel", session_id: "nothing-like-it" }, { "Accept-Language": "ar" }),
    );
    expect(arabic).toMatchObject({
      status: 404,
      body: { detail: "لم يُعثر على جلسة دفع بهذا المعرّف session_id أو رقم الطلب order_no." },
    });
    expect(await books(theirs.transactionId)).toMatchObject({ state: "paid", refunded_amount: 0, operations: [] });
    // Their own key does it.
    expect((await operate(keys.other, { operation: "refund", order_no: theirs.orderNo })).status).toBe(200);
  });

  it("a key without the refund grant is refused with 403; a bad request names its fields", async () => {
    const paid = await session(shop, 2_000);
    const refused = await answer(await operate(keys.readOnly, { operation: "refund", session_id: paid.sessionId }));
    expect(refused).toMatchObject({
      status: 403,
      body: { detail: "You do not have permission to perform this action." },
    });
    expect((await books(paid.transactionId)).operations).toEqual([]);

    const bad = await answer(await operate(keys.shop, { operation: "rebate", amount: { value: 1 } }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(["amount", "non_field_errors", "operation"]);
    const wrongMethod = await fetch(`${server.url}${PATH}`, { headers: { Authorization: `Api-Key ${keys.shop}` } });
    expect(wrongMethod.status).toBe(405);
    const withoutKey = await fetch(`${server.url}/api/v1/checkout/v1/operation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ operation: "refund", session_id: paid.sessionId }),
    });
    expect(withoutKey.status).toBe(401);
  });
});
