import { sql } from "kysely";
import { engineOf, type DB } from "~/db/database.server";
import type { ReturnReason } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { queuePaymentReturnMail } from "~/domain/messaging/payment-mail.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { newTrackId } from "~/lib/ids.server";
import { enqueueJob } from "~/lib/jobs.server";
import { errorField, log } from "~/lib/log.server";
import { money, word } from "~/lib/outcome";
import type { PlatformAddresses } from "./attempts.server";
import { PLATFORM_ACTOR, requestOperation, resumeOperation } from "./operations.server";
import type { TransitionEvent } from "./transaction-state.server";

/**
 * Money that should not have been taken goes back by itself: a payment that lands on an order staff
 * canceled (or whose places, portions or units were gone by then), and a second payment of what was
 * already paid (two tabs, two methods). The fact is recorded with the payment — one `payment_returns`
 * row per captured attempt, the customer's mail and a job, in the database transaction that records
 * the payment — and the job asks for the refund (or the void of an authorization) through the
 * operations core, as staff would: at once, or as a request for the merchant's checker when
 * operations approval is on. Exactly once whatever crashes: the row is written at most once per
 * attempt, the refund is sent under the row's reference (a retried job finds the operation it
 * started, and the gateway does it once), and a request is linked to the row in the write that makes it.
 */

/** The job that asks for a return's refund or void, queued with the return. */
export const RETURN_PAYMENT_JOB = "return_payment";
/** How long a return waits before asking again while another request of its transaction waits for a checker. */
const RETRY_WHILE_PENDING_MS = 10 * 60_000;

/**
 * Gives a captured attempt's money back, once: call it inside the database transaction that records
 * the payment (a section's onTransition, completeAttempt for a second payment). Nothing to give
 * back (cash on delivery, an attempt not captured, one already being returned): nothing happens.
 * Answers whether the return was started now.
 */
export async function returnPayment(trx: DB, input: { attemptId: string; reason: ReturnReason }) {
  // The payment's record never depends on it: a return that cannot be written is undone alone, and
  // the payment stays recorded with its audit line for staff.
  if (engineOf(trx) === "postgres" && !trx.isTransaction) return startReturn(trx, input);
  const name = sql.raw(`payment_return_${++savepoints}`);
  await sql`savepoint ${name}`.execute(trx);
  try {
    const started = await startReturn(trx, input);
    await sql`release savepoint ${name}`.execute(trx);
    return started;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(trx);
    await sql`release savepoint ${name}`.execute(trx);
    log.error({ attempt_id: input.attemptId, error: errorField(error) }, "payment return: not started");
    return false;
  }
}

let savepoints = 0;

async function startReturn(trx: DB, input: { attemptId: string; reason: ReturnReason }) {
  const attempt = await trx
    .selectFrom("payment_attempts")
    .select(["id", "merchant_id", "transaction_id", "state", "total", "currency_code", "authorized_only"])
    .where("id", "=", input.attemptId)
    .executeTakeFirst();
  if (!attempt || attempt.state !== "success" || attempt.total <= 0) return false;
  const inserted = await trx
    .insertInto("payment_returns")
    .values({
      attempt_id: attempt.id,
      merchant_id: attempt.merchant_id,
      transaction_id: attempt.transaction_id,
      reason: input.reason,
      kind: attempt.authorized_only ? "void" : "refund",
      amount: attempt.total,
      currency_code: attempt.currency_code,
      reference: newTrackId(),
      request_id: null,
      refusal: null,
      created_at: nowIso(),
    })
    .onConflict((conflict) => conflict.column("attempt_id").doNothing())
    .returning("attempt_id")
    .executeTakeFirst();
  // Already being given back (the same payment heard twice): once is enough.
  if (!inserted) return false;
  const transaction = await trx
    .selectFrom("transactions")
    .select("order_no")
    .where("id", "=", attempt.transaction_id)
    .executeTakeFirstOrThrow();
  await recordAudit(trx, {
    merchantId: attempt.merchant_id,
    actor: "system",
    action: "payment_return_started",
    params: {
      orderNo: transaction.order_no,
      amount: money(attempt.total, attempt.currency_code),
      reason: word(`payment_return.reasons.${input.reason}`),
    },
    objectType: "transaction",
    objectId: attempt.transaction_id,
  });
  await queuePaymentReturnMail(trx, { attemptId: attempt.id, reason: input.reason });
  await enqueueJob(trx, RETURN_PAYMENT_JOB, { attemptId: attempt.id });
  return true;
}

/**
 * A section's one line in its onTransition: the payment this change of state records goes back
 * (an order canceled by staff, or with nothing left to sell). Other changes: nothing.
 */
export async function returnPaymentOf(trx: DB, change: TransitionEvent, reason: ReturnReason) {
  if (change.cause.kind !== "payment") return false;
  return returnPayment(trx, { attemptId: change.cause.attemptId, reason });
}

/**
 * The return_payment job: the refund or void of a return, asked for once. A retry finds the
 * operation sent under the return's reference (resumed, or answered as it ended) or the request
 * made for a checker, and asks nothing again.
 */
export async function runPaymentReturn(db: DB, payload: { attemptId: string }, addresses: PlatformAddresses) {
  const pending = await db
    .selectFrom("payment_returns")
    .selectAll()
    .where("attempt_id", "=", payload.attemptId)
    .executeTakeFirst();
  if (!pending || pending.request_id !== null || pending.refusal !== null) return;
  const operation = {
    merchantId: pending.merchant_id,
    transactionId: pending.transaction_id,
    kind: pending.kind,
    attemptId: pending.attempt_id,
    reference: pending.reference,
    addresses,
  };
  if (await resumeOperation(db, operation)) return;
  const outcome = await requestOperation(db, {
    ...operation,
    actor: PLATFORM_ACTOR,
    reason: null,
    onRequested: async (trx, requestId) => {
      const linked = await trx
        .updateTable("payment_returns")
        .set({ request_id: requestId })
        .where("attempt_id", "=", pending.attempt_id)
        .where("request_id", "is", null)
        .executeTakeFirst();
      // Another run made the request first: this one is undone with its write.
      if (Number(linked.numUpdatedRows) !== 1) throw new Error("payment return: already requested");
    },
  });
  if (outcome.ok) return;
  // Another request waits for a checker on this transaction (staff's, or another return's): ask again once it is decided.
  if (outcome.code === "operations.errors.request_pending") {
    await enqueueJob(db, RETURN_PAYMENT_JOB, payload, { runAt: addMs(now(), RETRY_WHILE_PENDING_MS) });
    return;
  }
  // Refused before anything was sent (staff refunded it meanwhile, the gateway was removed…): staff must look.
  log.warn({ attempt_id: pending.attempt_id, code: outcome.code }, "payment return: refused");
  await db
    .updateTable("payment_returns")
    .set({ refusal: outcome.code })
    .where("attempt_id", "=", pending.attempt_id)
    .where("refusal", "is", null)
    .execute()
    .catch((error: unknown) => log.error({ error: errorField(error) }, "payment return: refusal not kept"));
}

export type ReturnStatus = "returning" | "returned" | "approval" | "attention";

/**
 * Where the return of an attempt's money stands, for the customer's result page and the merchant's
 * pages; undefined: it is not being returned. Given back is what the gateway did, by this return or
 * by staff before it: refunds and voids that went through for that payment.
 */
export async function paymentReturnOf(db: DB, attemptId: string) {
  const row = await db
    .selectFrom("payment_returns as r")
    .innerJoin("transactions as t", "t.id", "r.transaction_id")
    .leftJoin("transaction_operations as op", "op.reference", "r.reference")
    .leftJoin("operation_requests as q", "q.id", "r.request_id")
    .leftJoin("transaction_operations as approved", "approved.approval_request_id", "r.request_id")
    .select([
      "r.attempt_id",
      "r.transaction_id",
      "r.reason",
      "r.kind",
      "r.amount",
      "r.currency_code",
      "r.refusal",
      "r.created_at",
      "t.paid_attempt_id",
      "op.state as operation_state",
      "q.state as request_state",
      "approved.state as approved_state",
    ])
    .where("r.attempt_id", "=", attemptId)
    .executeTakeFirst();
  if (!row) return undefined;
  const ownPayment = row.paid_attempt_id === row.attempt_id;
  const given = await db
    .selectFrom("transaction_operations")
    .select((eb) => eb.fn.sum<number>("amount").as("total"))
    .where("transaction_id", "=", row.transaction_id)
    .where("kind", "in", ["refund", "void"])
    .where("state", "=", "succeeded")
    .where((eb) =>
      ownPayment
        ? eb.or([eb("attempt_id", "is", null), eb("attempt_id", "=", row.attempt_id)])
        : eb("attempt_id", "=", row.attempt_id),
    )
    .executeTakeFirst();
  const operationState = row.operation_state ?? row.approved_state;
  const status: ReturnStatus =
    Number(given?.total ?? 0) >= row.amount
      ? "returned"
      : operationState === "failed" || operationState === "attention" || row.refusal !== null
        ? "attention"
        : row.request_state === "pending"
          ? "approval"
          : row.request_state && row.request_state !== "approved"
            ? "attention"
            : "returning";
  return {
    attemptId: row.attempt_id,
    reason: row.reason,
    kind: row.kind,
    amount: row.amount,
    currency: row.currency_code,
    status,
    createdAt: row.created_at,
  };
}

export type PaymentReturn = NonNullable<Awaited<ReturnType<typeof paymentReturnOf>>>;

/** The returns of a transaction's payments, oldest first, for the merchant's order, booking and transaction pages. */
export async function paymentReturnsOfTransaction(db: DB, merchantId: number, transactionId: string) {
  const rows = await db
    .selectFrom("payment_returns")
    .select("attempt_id")
    .where("merchant_id", "=", merchantId)
    .where("transaction_id", "=", transactionId)
    .orderBy("created_at")
    .execute();
  const returns: PaymentReturn[] = [];
  for (const row of rows) {
    const found = await paymentReturnOf(db, row.attempt_id);
    if (found) returns.push(found);
  }
  return returns;
}
