import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeTransaction } from "~/db/database.server";
import type { DifferenceKind } from "~/db/schema";
import { advanceClock } from "~/lib/clock.server";
import { seedMerchant } from "../../../tests/support/fixtures";
import { payByCard } from "../../../tests/support/card-payment";
import { startHttpServer, type TestHttpServer } from "../../../tests/support/http-server";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { findMerchantGateway, toGatewayConfig } from "./gateway-settings.server";
import { adapterFor } from "./gateways/registry";
import { executeOperation, reserveOperation, settleOperationByHand } from "./operations.server";
import { reconcilePayments } from "./reconciler.server";
import {
  compareBooks,
  countOpenDifferences,
  listDifferences,
  resolveDifference,
  settleDifferenceByHand,
} from "./reconciliation.server";

/**
 * The reconciliation report: each kind of difference between a gateway's books and the
 * platform's is made for real, reported once, and closed when it is gone or a person resolves it.
 */
let database: TestDatabase;
let server: TestHttpServer;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Books");
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
  vi.restoreAllMocks();
});

const addresses = () => ({ publicBaseUrl: server.url, internalBaseUrl: server.url });
const actor = () => ({ ...shop.admin, is_superuser: 1, permissions: [] as string[] });
const form = { Origin: "", "Content-Type": "application/x-www-form-urlencoded" };

async function attemptOf(transactionId: string) {
  return database.db
    .selectFrom("payment_attempts")
    .select(["id", "track_id", "gateway_reference", "payment_id", "state"])
    .where("transaction_id", "=", transactionId)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
}

/** Pay Now and the gateway's page, but the customer never comes back and nothing is notified: the gateway has the money, the platform does not know. */
async function paidButUnheard(gatewayCode: "mpgs-sandbox" | "knet-sandbox", amount: string) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount, pg_codes: gatewayCode }),
    baseUrl: server.url,
    lang: "en",
  });
  if (!created.ok) throw new Error("could not create");
  const id = created.transaction.id;
  const headers = { ...form, Origin: server.url };
  const pay = await fetch(`${server.url}/en/pay/${id}`, {
    method: "POST",
    headers,
    body: new URLSearchParams({ gateway_code: gatewayCode, submission_token: `unheard-${id}` }),
    redirect: "manual",
  });
  let page = pay.headers.get("Location")!;
  if (gatewayCode === "knet-sandbox") {
    const init = await fetch(page, { redirect: "manual" });
    page = new URL(init.headers.get("Location")!, server.url).toString();
    // KNET's server posts the result itself: a capture goes unheard only when that post is lost
    // (the process that would send it dies after the capture). The sandbox's books say so directly.
    await database.db
      .updateTable("sandbox_knet_payments")
      .set({
        result: "CAPTURED",
        tran_id: "7000000000000002",
        auth_code: "123456",
        reference_id: "700000000002",
        post_date: "0101",
        completed_at: new Date().toISOString(),
      })
      .where("payment_id", "=", new URL(page).searchParams.get("PaymentID")!)
      .execute();
    return id;
  }
  const body: Record<string, string> = { cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" };
  const submitted = await fetch(page, { method: "POST", headers, body: new URLSearchParams(body), redirect: "manual" });
  expect(submitted.status).toBe(303);
  return id;
}

async function open() {
  const { rows } = await listDifferences(database.db, shop.merchantId, { resolved: false, limit: 100, offset: 0 });
  return rows;
}

const kinds = (rows: Array<{ kind: DifferenceKind; transaction_id: string | null }>, transactionId: string) =>
  rows
    .filter((row) => row.transaction_id === transactionId)
    .map((row) => row.kind)
    .sort();

describe("the reconciliation report", () => {
  it("reports each kind of difference once, and closes each when it is gone or a person resolves it", async () => {
    // 1. Captured by the card gateway, never heard of (and, an hour on, still pending past the session).
    const unheardCard = await paidButUnheard("mpgs-sandbox", "5.000");
    // 2. Captured by KNET, never heard of.
    const unheardKnet = await paidButUnheard("knet-sandbox", "6.000");
    // 3. Recorded as paid; the gateway's books say otherwise (declined), and another of another amount.
    const notAtGateway = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "7.000" })
    ).id;
    const otherAmount = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "8.000" })
    ).id;
    await database.db
      .updateTable("sandbox_mpgs_orders")
      .set({ status: "FAILED", total_captured: 0 })
      .where("order_id", "=", (await attemptOf(notAtGateway)).track_id)
      .execute();
    await database.db
      .updateTable("sandbox_mpgs_orders")
      .set({ total_captured: 7900 })
      .where("order_id", "=", (await attemptOf(otherAmount)).track_id)
      .execute();
    // 4. A refund the gateway made that the platform never recorded, and one recorded that the gateway lost.
    const refundedElsewhere = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "9.000" })
    ).id;
    const attempt = await attemptOf(refundedElsewhere);
    const config = toGatewayConfig(
      (await findMerchantGateway(database.db, shop.merchantId, "mpgs-sandbox"))!,
      addresses(),
    );
    expect(
      await adapterFor("mpgs").refund(
        config,
        { gatewayReference: attempt.gateway_reference, trackId: attempt.track_id, paymentId: attempt.payment_id },
        2000,
        "made-outside",
      ),
    ).toMatchObject({ ok: true });
    const refundLost = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "4.000" })
    ).id;
    expect(
      await executeOperation(database.db, {
        merchantId: shop.merchantId,
        actor: actor(),
        transactionId: refundLost,
        kind: "refund",
        amount: "1.000",
        addresses: addresses(),
        requestId: null,
      }),
    ).toMatchObject({ ok: true });
    // The gateway lost it: asked by its transaction id, it answers the refund failed.
    await database.db
      .updateTable("sandbox_mpgs_transactions")
      .set({ result: "FAILURE" })
      .where("type", "=", "REFUND")
      .where("order_id", "=", (await attemptOf(refundLost)).track_id)
      .execute();
    // 5. A refund reserved by a process that died before sending it.
    const interrupted = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "3.000" })
    ).id;
    const reserved = await writeTransaction(database.db, (trx) =>
      reserveOperation(trx, {
        merchantId: shop.merchantId,
        actor: actor(),
        transactionId: interrupted,
        kind: "refund",
        amount: "1.500",
        requestId: null,
      }),
    );
    expect(reserved.ok).toBe(true);

    // Nothing is compared while it may still be in flight.
    await compareBooks(database.db, addresses());
    expect(await open()).toEqual([]);

    advanceClock(65 * 60_000);
    const first = await compareBooks(database.db, addresses());
    expect(first.failedGateways).toEqual([]);
    const rows = await open();
    expect(kinds(rows, unheardCard)).toEqual(["attempt_unresolved", "missing_payment"]);
    expect(kinds(rows, unheardKnet)).toEqual(["attempt_unresolved", "missing_payment"]);
    expect(kinds(rows, notAtGateway)).toEqual(["unknown_payment"]);
    expect(kinds(rows, otherAmount)).toEqual(["amount_mismatch"]);
    // The Mastercard Gateway publishes no settlement report: asked order by order, a refund made outside the platform is not seen.
    expect(kinds(rows, refundedElsewhere)).toEqual([]);
    expect(kinds(rows, refundLost)).toEqual(["missing_refund"]);
    expect(kinds(rows, interrupted)).toEqual(["operation_unresolved"]);
    const mismatch = rows.find((row) => row.transaction_id === otherAmount)!;
    expect(mismatch).toMatchObject({
      platform_amount: 8000 + 100 + 160,
      gateway_amount: 7900,
      currency_code: "KWD",
      gateway_code: "mpgs-sandbox",
    });
    expect(await countOpenDifferences(database.db, shop.merchantId)).toBe(rows.length);

    // Compared again, the same differences are not reported twice.
    advanceClock(60_000);
    expect((await compareBooks(database.db, addresses())).found).toBe(0);
    expect((await open()).length).toBe(rows.length);

    // The reconciler settles what it can: the unheard payments are recorded, the interrupted refund released.
    await reconcilePayments(database.db, addresses());
    expect((await attemptOf(unheardCard)).state).toBe("success");
    expect((await attemptOf(unheardKnet)).state).toBe("success");
    // The gateway's books are put right for the others, but one: a person deals with it.
    await database.db
      .updateTable("sandbox_mpgs_orders")
      .set({ status: "CAPTURED", total_captured: 7000 + 100 + 140 })
      .where("order_id", "=", (await attemptOf(notAtGateway)).track_id)
      .execute();
    await database.db
      .updateTable("sandbox_mpgs_transactions")
      .set({ result: "SUCCESS" })
      .where("type", "=", "REFUND")
      .where("order_id", "=", (await attemptOf(refundLost)).track_id)
      .execute();

    advanceClock(60_000);
    const second = await compareBooks(database.db, addresses());
    expect(second.resolved).toBe(rows.length - 1);
    const left = await open();
    expect(left.map((row) => [row.transaction_id, row.kind])).toEqual([[otherAmount, "amount_mismatch"]]);

    expect(
      await resolveDifference(database.db, {
        merchantId: shop.merchantId + 1000,
        id: left[0].id,
        actor: shop.admin,
        note: "not ours",
      }),
    ).toBe("gone");
    expect(
      await resolveDifference(database.db, {
        merchantId: shop.merchantId,
        id: left[0].id,
        actor: shop.admin,
        note: "Checked with the bank; recorded by hand",
      }),
    ).toBe("resolved");
    expect(await open()).toEqual([]);
    const { rows: resolved } = await listDifferences(database.db, shop.merchantId, {
      resolved: true,
      limit: 100,
      offset: 0,
    });
    expect(resolved.find((row) => row.id === left[0].id)).toMatchObject({
      resolved_by: shop.admin.username,
      note: "Checked with the bank; recorded by hand",
    });
    expect(resolved.filter((row) => row.resolved_by === "auto")).toHaveLength(rows.length - 1);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("action", "=", "reconciliation_difference_resolved")
      .execute();
    expect(audit).toHaveLength(1);

    // What a person resolved is not raised again while it stays as it was.
    advanceClock(60_000);
    await compareBooks(database.db, addresses());
    expect(await open()).toEqual([]);
  });

  it("does not report a voided authorization, a partial capture or a refund still being sent", async () => {
    await database.db
      .updateTable("gateways")
      .set({ capture_mode: "manual" })
      .where("merchant_id", "=", shop.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    let voided: string;
    let partlyCaptured: string;
    try {
      voided = await authorizedByCard("6.000");
      partlyCaptured = await authorizedByCard("8.000");
    } finally {
      await database.db
        .updateTable("gateways")
        .set({ capture_mode: "auto" })
        .where("merchant_id", "=", shop.merchantId)
        .where("code", "=", "mpgs-sandbox")
        .execute();
    }
    const operate = (transactionId: string, kind: "void" | "capture" | "refund", amount?: string) =>
      executeOperation(database.db, {
        merchantId: shop.merchantId,
        actor: actor(),
        transactionId,
        kind,
        amount,
        addresses: addresses(),
        requestId: null,
      });
    expect(await operate(voided, "void")).toMatchObject({ ok: true });
    expect(await operate(partlyCaptured, "capture", "5.000")).toMatchObject({ ok: true });
    const refunding = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "2.000" })
    ).id;

    advanceClock(3 * 60_000);
    // A refund the gateway has made, its request not yet answered: the reconciler's to settle, not a difference.
    const reserved = await writeTransaction(database.db, (trx) =>
      reserveOperation(trx, {
        merchantId: shop.merchantId,
        actor: actor(),
        transactionId: refunding,
        kind: "refund",
        amount: "1.000",
        requestId: null,
      }),
    );
    if (!reserved.ok) throw new Error(reserved.code);
    const operation = await database.db
      .selectFrom("transaction_operations")
      .select("reference")
      .where("id", "=", reserved.operationId)
      .executeTakeFirstOrThrow();
    const attempt = await attemptOf(refunding);
    const config = toGatewayConfig(
      (await findMerchantGateway(database.db, shop.merchantId, "mpgs-sandbox"))!,
      addresses(),
    );
    expect(
      await adapterFor("mpgs").refund(
        config,
        { gatewayReference: attempt.gateway_reference, trackId: attempt.track_id, paymentId: attempt.payment_id },
        1000,
        operation.reference!,
      ),
    ).toMatchObject({ ok: true });

    const run = await compareBooks(database.db, addresses());
    expect(run.failedGateways).toEqual([]);
    const rows = await open();
    for (const id of [voided, partlyCaptured, refunding]) expect(kinds(rows, id)).toEqual([]);
  });
});

describe("an operation the gateway never answered for", () => {
  it("is listed, and a person who checked with the bank records it as done or not done", async () => {
    const id = (
      await payByCard(database.db, server.url, { merchantId: shop.merchantId, user: shop.admin, amount: "5.000" })
    ).id;
    const leftUnanswered = async (amount: string) => {
      const reserved = await writeTransaction(database.db, (trx) =>
        reserveOperation(trx, {
          merchantId: shop.merchantId,
          actor: actor(),
          transactionId: id,
          kind: "refund",
          amount,
          requestId: null,
        }),
      );
      if (!reserved.ok) throw new Error(reserved.code);
      // What a day of a gateway that never answered leaves: the operation handed to a person, its amount reserved.
      await database.db
        .updateTable("transaction_operations")
        .set({ state: "attention", next_check_at: null })
        .where("id", "=", reserved.operationId)
        .execute();
      return reserved.operationId;
    };
    const notDone = await leftUnanswered("1.000");
    const done = await leftUnanswered("2.000");
    const money = () =>
      database.db
        .selectFrom("transactions")
        .select(["refunded_amount", "state"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    expect(await money()).toMatchObject({ refunded_amount: 3000 });

    advanceClock(3 * 60_000);
    await compareBooks(database.db, addresses());
    const listed = (await open()).filter((row) => row.transaction_id === id);
    expect(listed.map((row) => [row.kind, row.operation_state])).toEqual([
      ["operation_unresolved", "attention"],
      ["operation_unresolved", "attention"],
    ]);

    // An operation still waiting for a person is settled, not resolved with a note: its money is reserved.
    expect(
      await resolveDifference(database.db, {
        merchantId: shop.merchantId,
        id: listed[0].id,
        actor: shop.admin,
        note: "seen",
      }),
    ).toBe("settle_instead");

    const person = { ...actor() };
    expect(
      await settleOperationByHand(database.db, {
        merchantId: shop.merchantId + 1000,
        operationId: notDone,
        actor: person,
        done: false,
        note: "x",
      }),
    ).toBe(false);
    expect(
      await settleOperationByHand(database.db, {
        merchantId: shop.merchantId,
        operationId: notDone,
        actor: person,
        done: false,
        note: "Not on the acquirer's statement",
      }),
    ).toBe(true);
    expect(
      await settleOperationByHand(database.db, {
        merchantId: shop.merchantId,
        operationId: notDone,
        actor: person,
        done: true,
        note: "again",
      }),
    ).toBe(false);
    expect(await money()).toMatchObject({ refunded_amount: 2000 });
    // The other one the gateway did make: its statement shows it.
    const attempt = await attemptOf(id);
    const config = toGatewayConfig(
      (await findMerchantGateway(database.db, shop.merchantId, "mpgs-sandbox"))!,
      addresses(),
    );
    const { reference } = await database.db
      .selectFrom("transaction_operations")
      .select("reference")
      .where("id", "=", done)
      .executeTakeFirstOrThrow();
    expect(
      await adapterFor("mpgs").refund(
        config,
        { gatewayReference: attempt.gateway_reference, trackId: attempt.track_id, paymentId: attempt.payment_id },
        2000,
        reference!,
      ),
    ).toMatchObject({ ok: true });
    // From the report, as the page does: the operation is settled and its difference closes with the note.
    const doneDifference = listed.find((row) => row.operation_id === done)!;
    expect(
      await settleDifferenceByHand(database.db, {
        merchantId: shop.merchantId,
        id: doneDifference.id,
        actor: person,
        done: true,
        note: "On the statement of 24 November",
      }),
    ).toBe(true);
    const closed = await database.db
      .selectFrom("reconciliation_differences")
      .select(["resolved_by", "note"])
      .where("id", "=", doneDifference.id)
      .executeTakeFirstOrThrow();
    expect(closed).toEqual({ resolved_by: person.username, note: "On the statement of 24 November" });
    expect(await money()).toMatchObject({ refunded_amount: 2000 });
    const ledger = await database.db
      .selectFrom("ledger_entries")
      .select("amount")
      .where("transaction_id", "=", id)
      .where("kind", "=", "refund")
      .execute();
    expect(ledger).toEqual([{ amount: 2000 }]);
    const audit = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_id", "=", id)
      .where("action", "like", "operation_settled%")
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual(["operation_settled_done", "operation_settled_not_done"]);

    // The gateway's own answer stands: once the reconciler has heard "never received", a person's "done" changes nothing.
    const answered = await leftUnanswered("0.500");
    advanceClock(60 * 60_000);
    await reconcilePayments(database.db, addresses());
    expect(
      (
        await database.db
          .selectFrom("transaction_operations")
          .select("state")
          .where("id", "=", answered)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe("failed");
    expect(
      await settleOperationByHand(database.db, {
        merchantId: shop.merchantId,
        operationId: answered,
        actor: person,
        done: true,
        note: "late",
      }),
    ).toBe(false);
    expect(await money()).toMatchObject({ refunded_amount: 2000 });

    advanceClock(60_000);
    await compareBooks(database.db, addresses());
    expect((await open()).filter((row) => row.transaction_id === id)).toEqual([]);
  });
});

/** Paid with the card sandbox on a gateway that authorizes only: the money is held until captured. */
async function authorizedByCard(amount: string) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount, pg_codes: "mpgs-sandbox" }),
    baseUrl: server.url,
    lang: "en",
  });
  if (!created.ok) throw new Error("could not create");
  const id = created.transaction.id;
  const headers = { ...form, Origin: server.url };
  const pay = await fetch(`${server.url}/en/pay/${id}`, {
    method: "POST",
    headers,
    body: new URLSearchParams({ gateway_code: "mpgs-sandbox", submission_token: `auth-${id}` }),
    redirect: "manual",
  });
  const paid = await fetch(pay.headers.get("Location")!, {
    method: "POST",
    headers,
    body: new URLSearchParams({ cardNumber: "5123450000000008", expiry: "01/39", cvv: "123" }),
    redirect: "manual",
  });
  await fetch(new URL(paid.headers.get("Location")!, server.url), { redirect: "manual" });
  const row = await database.db
    .selectFrom("transactions")
    .select("state")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  expect(row.state).toBe("authorized");
  return id;
}
