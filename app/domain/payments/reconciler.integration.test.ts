import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { writeTransaction } from "~/db/database.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { enqueueJob, registerJobHandler, requeueStaleJobs, runReadyJobs } from "~/lib/jobs.server";
import { seedMerchant } from "../../../tests/support/fixtures";
import { payByCard } from "../../../tests/support/card-payment";
import { startHttpServer, type TestHttpServer } from "../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { findMerchantGateway, toGatewayConfig } from "./gateway-settings.server";
import { adapterFor } from "./gateways/registry";
import { executeOperation, reserveOperation } from "./operations.server";
import { reconcilePayments } from "./reconciler.server";
import { DEMO_PASSWORD } from "../../../tests/support/fixtures";
import { operationReferenceOf, requestHashOf, storedKeyOf, type KeyCaller } from "~/web/idempotency.server";

/**
 * What a crash leaves behind, and the reconciler that picks it up: a refund reserved but never
 * sent, one the gateway made but nobody recorded, one the gateway cannot say anything about, a
 * payment nobody heard of; and a job whose worker died.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let silent: http.Server;
let silentUrl: string;

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Crash");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
  // A gateway that drops every connection: its answer is unknown.
  silent = http.createServer((request) => request.socket.destroy());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterEach(() => resetClock());

afterAll(async () => {
  await new Promise((resolve) => silent?.close(resolve));
  await server?.close();
  await database?.destroy();
  vi.restoreAllMocks();
});

const addresses = () => ({ publicBaseUrl: server.url, internalBaseUrl: server.url });
const actor = () => ({ ...shop.admin, is_superuser: 1, permissions: [] as string[] });

async function paid(amount: string) {
  return (await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount })).id;
}

/** The first half of a refund, as a process that died right after it would have left it. */
async function reserved(transactionId: string, amount: string) {
  const outcome = await writeTransaction(database.db, (trx) =>
    reserveOperation(trx, {
      merchantId: shop.merchantId,
      actor: actor(),
      transactionId,
      kind: "refund",
      amount,
      requestId: null,
    }),
  );
  if (!outcome.ok) throw new Error(outcome.code);
  return database.db
    .selectFrom("transaction_operations")
    .selectAll()
    .where("id", "=", outcome.operationId)
    .executeTakeFirstOrThrow();
}

async function money(transactionId: string) {
  const transaction = await database.db
    .selectFrom("transactions")
    .select(["state", "refunded_amount", "captured_amount"])
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  const refunds = await database.db
    .selectFrom("ledger_entries")
    .select("amount")
    .where("transaction_id", "=", transactionId)
    .where("kind", "=", "refund")
    .execute();
  return { ...transaction, ledgerRefunds: refunds.map((row) => row.amount) };
}

const operationState = async (id: number) =>
  database.db
    .selectFrom("transaction_operations")
    .select(["state", "message"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("a refund interrupted by a crash", () => {
  it("reserved but never sent: the reconciler finds the gateway never had it and releases the amount", async () => {
    const id = await paid("10.000");
    const operation = await reserved(id, "4.000");
    expect(await money(id)).toMatchObject({ refunded_amount: 4000, ledgerRefunds: [] });

    await reconcilePayments(database.db, addresses());
    expect((await operationState(operation.id)).state).toBe("pending"); // left to its request for a while first
    advanceClock(3 * 60_000);
    await reconcilePayments(database.db, addresses());
    expect(await operationState(operation.id)).toEqual({ state: "failed", message: "operations.notes.never_received" });
    expect(await money(id)).toMatchObject({ state: "paid", refunded_amount: 0, ledgerRefunds: [] });
  });

  it("made by the gateway but never recorded: the reconciler asks by the operation's reference and records it", async () => {
    const id = await paid("10.000");
    const operation = await reserved(id, "2.500");
    // The request reached the gateway, which refunded; the process died before it wrote the answer.
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .innerJoin("transactions", "transactions.paid_attempt_id", "payment_attempts.id")
      .select(["payment_attempts.gateway_reference", "payment_attempts.track_id", "payment_attempts.payment_id"])
      .where("transactions.id", "=", id)
      .executeTakeFirstOrThrow();
    const gateway = (await findMerchantGateway(database.db, shop.merchantId, "mpgs-sandbox"))!;
    const config = toGatewayConfig(gateway, addresses());
    const target = {
      gatewayReference: attempt.gateway_reference,
      trackId: attempt.track_id,
      paymentId: attempt.payment_id,
    };
    expect(await adapterFor("mpgs").refund(config, target, 2500, operation.reference!)).toMatchObject({ ok: true });
    // Sent again under the same reference, the gateway refunds once.
    expect(await adapterFor("mpgs").refund(config, target, 2500, operation.reference!)).toMatchObject({ ok: true });

    advanceClock(3 * 60_000);
    await reconcilePayments(database.db, addresses());
    expect((await operationState(operation.id)).state).toBe("succeeded");
    expect(await money(id)).toMatchObject({ state: "paid", refunded_amount: 2500, ledgerRefunds: [2500] });
    const books = await database.db
      .selectFrom("sandbox_mpgs_orders")
      .select("total_refunded as refunded_amount")
      .where("order_id", "=", attempt.track_id)
      .executeTakeFirstOrThrow();
    expect(books.refunded_amount).toBe(2500);
  });

  it("made by KNET but never recorded: found by the refund's own track id", async () => {
    const created = await createPaymentRequest(database.db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: PaymentRequestSchema.parse({ amount: "7.000", pg_codes: "knet-sandbox" }),
      baseUrl: server.url,
      lang: "en",
    });
    if (!created.ok) throw new Error("could not create");
    const id = created.transaction.id;
    const pay = await fetch(`${server.url}/en/pay/${id}`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gateway_code: "knet-sandbox", submission_token: `knet-${id}` }),
      redirect: "manual",
    });
    const init = await fetch(pay.headers.get("Location")!, { redirect: "manual" });
    const page = new URL(init.headers.get("Location")!, server.url).toString();
    const submitted = await fetch(page, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "submit", cardNumber: "8888880000000001", pin: "1234" }),
      redirect: "manual",
    });
    await fetch(submitted.headers.get("Location")!, { redirect: "manual" });
    expect((await money(id)).state).toBe("paid");

    const operation = await reserved(id, "7.000");
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select(["gateway_reference", "track_id", "payment_id"])
      .where("transaction_id", "=", id)
      .executeTakeFirstOrThrow();
    const config = toGatewayConfig(
      (await findMerchantGateway(database.db, shop.merchantId, "knet-sandbox"))!,
      addresses(),
    );
    const target = {
      gatewayReference: attempt.gateway_reference,
      trackId: attempt.track_id,
      paymentId: attempt.payment_id,
    };
    expect(await adapterFor("knet").refund(config, target, 7000, operation.reference!)).toMatchObject({ ok: true });
    expect(await adapterFor("knet").refund(config, target, 7000, operation.reference!)).toMatchObject({ ok: true });
    const refundsAtKnet = await database.db
      .selectFrom("sandbox_knet_payments")
      .select("amount")
      .where("track_id", "=", operation.reference!)
      .execute();
    expect(refundsAtKnet).toEqual([{ amount: "7.000" }]);

    advanceClock(3 * 60_000);
    await reconcilePayments(database.db, addresses());
    expect((await operationState(operation.id)).state).toBe("succeeded");
    expect(await money(id)).toMatchObject({ state: "refunded", refunded_amount: 7000, ledgerRefunds: [7000] });
  });

  it("sent to a gateway that never answers: kept reserved (202, being checked), then handed to a person", async () => {
    const id = await paid("9.000");
    await database.db
      .updateTable("gateways")
      .set({ endpoint_url: silentUrl })
      .where("merchant_id", "=", shop.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    try {
      const outcome = await executeOperation(database.db, {
        merchantId: shop.merchantId,
        actor: actor(),
        transactionId: id,
        kind: "refund",
        amount: "3.000",
        addresses: addresses(),
        requestId: null,
      });
      expect(outcome).toMatchObject({ ok: true, checking: true, code: "operations.checking.refund" });
      const [operation] = await database.db
        .selectFrom("transaction_operations")
        .select(["id", "state"])
        .where("transaction_id", "=", id)
        .execute();
      expect(operation.state).toBe("pending");
      expect(await money(id)).toMatchObject({ refunded_amount: 3000, ledgerRefunds: [] });

      // The reconciler keeps asking, backing off; the amount stays reserved, never released on a guess.
      for (let hour = 0; hour < 30; hour++) {
        advanceClock(60 * 60_000);
        await reconcilePayments(database.db, addresses());
      }
      expect((await operationState(operation.id)).state).toBe("attention");
      expect(await money(id)).toMatchObject({ refunded_amount: 3000, ledgerRefunds: [] });
    } finally {
      await database.db
        .updateTable("gateways")
        .set({ endpoint_url: null })
        .where("merchant_id", "=", shop.merchantId)
        .where("code", "=", "mpgs-sandbox")
        .execute();
    }
  });
});

describe("a refund retried with its Idempotency-Key after the process died", () => {
  it("finds the refund the first request started and sends it under the same reference: the customer gets the money once", async () => {
    const id = await paid("10.000");
    const key = "refund-after-crash-1";
    const scope = `transaction.action.${id}.refund`;
    const body = { amount: "1.000", attempt_id: null };
    // The first request took the key, reserved the refund under the key's reference and sent it; the
    // gateway refunded; the process died before it recorded the answer or the response.
    const caller: KeyCaller = { kind: "user", userId: shop.admin.id };
    const reference = operationReferenceOf(
      new Request("http://localhost", { headers: { "Idempotency-Key": key } }),
      shop.merchantId,
      caller,
      scope,
    )!;
    const reservedOne = await writeTransaction(database.db, (trx) =>
      reserveOperation(trx, {
        merchantId: shop.merchantId,
        actor: actor(),
        transactionId: id,
        kind: "refund",
        amount: "1.000",
        requestId: null,
        reference,
      }),
    );
    expect(reservedOne.ok).toBe(true);
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select(["gateway_reference", "track_id", "payment_id"])
      .where("transaction_id", "=", id)
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
        key: storedKeyOf(caller, key, ""),
        scope,
        request_hash: requestHashOf(scope, body),
        response_status: null,
        response_body: null,
        created_at: new Date().toISOString(),
      })
      .execute();

    // The client retries once the key's 60 s lease has run out, before the reconciler's grace: the retry
    // claims the operation and sends it again (after the grace it would answer 202 and leave it to the reconciler).
    const moveServerClock = (ms: number) =>
      fetch(`${server.url}/__test/clock`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ms }),
      });
    await moveServerClock(70_000);
    onTestFinished(async () => void (await moveServerClock(-70_000)));
    const token = await fetch(`${server.url}/api/v1/user/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: shop.admin.username, password: DEMO_PASSWORD }),
    }).then(async (response) => ((await response.json()) as { access: string }).access);
    const retry = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify(body),
    });
    expect(retry.status).toBe(200);
    const operations = await database.db
      .selectFrom("transaction_operations")
      .select(["state", "amount"])
      .where("transaction_id", "=", id)
      .execute();
    expect(operations).toEqual([{ state: "succeeded", amount: 1000 }]);
    expect(await money(id)).toMatchObject({ refunded_amount: 1000, ledgerRefunds: [1000] });
    const books = await database.db
      .selectFrom("sandbox_mpgs_orders")
      .select("total_refunded as refunded_amount")
      .where("order_id", "=", attempt.track_id)
      .executeTakeFirstOrThrow();
    expect(books.refunded_amount).toBe(1000);

    // The key given up (its row gone), the same key for another amount is refused, not taken for the first refund.
    await database.db
      .deleteFrom("idempotency_keys")
      .where("merchant_id", "=", shop.merchantId)
      .where("key", "=", storedKeyOf(caller, key, ""))
      .execute();
    const other = await fetch(`${server.url}/api/v1/plugins/payment_request/transaction/actions/${id}/refund/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify({ amount: "2.000", attempt_id: null }),
    });
    expect(other.status).toBe(422);
    expect(await money(id)).toMatchObject({ refunded_amount: 1000, ledgerRefunds: [1000] });
  });
});

describe("a payment nobody heard of", () => {
  it("is asked about by the reconciler when the customer never came back and the notification was lost", async () => {
    const created = await createPaymentRequest(database.db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: PaymentRequestSchema.parse({ amount: "5.000", pg_codes: "mpgs-sandbox" }),
      baseUrl: server.url,
      lang: "en",
    });
    if (!created.ok) throw new Error("could not create");
    const id = created.transaction.id;
    const pay = await fetch(`${server.url}/en/pay/${id}`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `lost-${id}` }),
      redirect: "manual",
    });
    const card = await fetch(pay.headers.get("Location")!, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
      redirect: "manual",
    });
    expect(card.status).toBe(303);
    // The customer closes the tab, and the acquirer's notification never arrives (the job is lost with its worker).
    await database.db.deleteFrom("jobs").where("type", "=", "sandbox_mpgs_notify").execute();
    expect((await money(id)).state).not.toBe("paid");

    advanceClock(3 * 60_000);
    await reconcilePayments(database.db, addresses());
    expect((await money(id)).state).toBe("paid");
  });

  it("ends as timed out after the gateway's session when the gateway never saw it", async () => {
    const created = await createPaymentRequest(database.db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: PaymentRequestSchema.parse({ amount: "1.000", pg_codes: "mpgs-sandbox" }),
      baseUrl: server.url,
      lang: "en",
    });
    if (!created.ok) throw new Error("could not create");
    await fetch(`${server.url}/en/pay/${created.transaction.id}`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `gone-${created.transaction.id}` }),
      redirect: "manual",
    });
    for (let step = 0; step < 12; step++) {
      advanceClock(10 * 60_000);
      await reconcilePayments(database.db, addresses());
    }
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select(["state", "result_code", "next_inquiry_at"])
      .where("transaction_id", "=", created.transaction.id)
      .executeTakeFirstOrThrow();
    expect(attempt).toEqual({ state: "error", result_code: "TIMEOUT", next_inquiry_at: null });
  });
});

describe("a job whose worker died", () => {
  it("is taken again within seconds, not minutes", async () => {
    const ran: string[] = [];
    registerJobHandler("test_retaken", async (_db, payload: { name: string }) => void ran.push(payload.name));
    await enqueueJob(database.db, "test_retaken", { name: "orphan" });
    // A worker claimed it and died: the row stays running with its last heartbeat.
    await database.db
      .updateTable("jobs")
      .set({ status: "running", locked_by: "gone:1", locked_at: new Date().toISOString(), attempts: 1 })
      .where("type", "=", "test_retaken")
      .execute();
    await runReadyJobs(database.db);
    expect(ran).toEqual([]);
    advanceClock(40_000);
    await runReadyJobs(database.db);
    expect(ran).toEqual(["orphan"]);
  });

  it("is not taken from a live worker: its heartbeat renews the lease while it runs", async () => {
    let finish!: () => void;
    const started = new Promise<void>((resolve) => {
      registerJobHandler("test_long", () => {
        resolve();
        return new Promise<void>((done) => (finish = done));
      });
    });
    await enqueueJob(database.db, "test_long", {});
    const running = runReadyJobs(database.db, { heartbeatMs: 20 });
    await started;
    advanceClock(40_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await requeueStaleJobs(database.db);
    const job = await database.db
      .selectFrom("jobs")
      .select(["status"])
      .where("type", "=", "test_long")
      .executeTakeFirstOrThrow();
    expect(job.status).toBe("running");
    finish();
    await running;
    expect(
      (await database.db.selectFrom("jobs").select("status").where("type", "=", "test_long").executeTakeFirstOrThrow())
        .status,
    ).toBe("done");
  });
});
