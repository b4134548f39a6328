import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { OperationKind, TransactionState } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { can, type Actor, type Permission } from "~/domain/identity/permissions";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { reconcilerGraceMs } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import { GATEWAY_KINDS, gatewaySupports, isGatewayKind } from "~/domain/payments/gateways/registry";
import { availableAmount, OPERATION_PERMISSIONS } from "~/domain/payments/operations.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { runRowAction } from "~/domain/payments/transaction-actions.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { now } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { parseAmount } from "~/lib/money";
import { money, refuse, word, type Refusal, type TextParams } from "~/lib/outcome";

/**
 * What a merchant's server may do to one of its checkout sessions (decision 0029): move money on
 * the session's transaction through the platform's one operation path — refund, capture, void,
 * with the merchant's approvals — or end a session nobody has paid (cancel, expire).
 */
export const SESSION_OPERATIONS = ["refund", "capture", "void", "cancel", "expire"] as const;
export type SessionOperation = (typeof SESSION_OPERATIONS)[number];

export function isSessionOperation(value: unknown): value is SessionOperation {
  return typeof value === "string" && (SESSION_OPERATIONS as readonly string[]).includes(value);
}

function isMoneyOperation(operation: SessionOperation): operation is OperationKind {
  return operation === "refund" || operation === "capture" || operation === "void";
}

/** The permission an operation needs on the session's transaction's section: its own grant for money, write to end a session. */
export function operationPermission(operation: SessionOperation): Permission {
  return isMoneyOperation(operation) ? OPERATION_PERMISSIONS[operation] : "change_paymenttransaction";
}

/** The session an operation names: its id, or the merchant's own order number (both: they must name the same one). */
export type SessionReference = { sessionId: string | null; orderNo: string | null };

/**
 * A session with its transaction's money, as an operation reads it and answers it. A session whose
 * transaction the merchant deleted from the list is found only with `deleted` (its `deleted_at`
 * set): nothing is done to it, but an answer kept for a Tracking-Key is still given.
 */
export async function findOperableSession(
  db: DB,
  merchantId: number,
  reference: SessionReference,
  options: { deleted?: boolean } = {},
) {
  if (!reference.sessionId && !reference.orderNo) return undefined;
  let query = db
    .selectFrom("checkout_sessions as s")
    .innerJoin("transactions as t", "t.id", "s.transaction_id")
    .select([
      "s.id as session_id",
      "s.order_no",
      "t.id",
      "t.plugin",
      "t.order_no as transaction_order_no",
      "t.state",
      "t.currency_code",
      "t.paid_amount",
      "t.captured_amount",
      "t.refunded_amount",
      "t.voided_amount",
      "t.gateway_code",
      "t.paid_attempt_id",
      "t.deleted_at",
    ])
    .where("s.merchant_id", "=", merchantId)
    .where("t.merchant_id", "=", merchantId);
  if (!options.deleted) query = query.where("t.deleted_at", "is", null);
  if (reference.sessionId) query = query.where("s.id", "=", reference.sessionId);
  if (reference.orderNo) query = query.where("s.order_no", "=", reference.orderNo);
  return query.executeTakeFirst();
}

export type OperableSession = NonNullable<Awaited<ReturnType<typeof findOperableSession>>>;

/**
 * How an operation the platform took on ended: `success` (done), `pending` (waiting for a checker,
 * `approvalRequestId`, or sent with the gateway's answer still being checked) or `failed` (the
 * gateway refused it). `amount` is what it moved or asks to move, in minor units; null for cancel
 * and expire, which move no money. A refusal is answered before anything was done.
 */
export type SessionOperationOutcome =
  | {
      ok: true;
      result: "success" | "pending" | "failed";
      code: string;
      params: TextParams;
      amount: number | null;
      approvalRequestId: number | null;
    }
  | Refusal;

/** Codes of refusals that name the amount still available (an API answer adds it as a field). */
export const AMOUNT_REFUSALS = [
  "checkout_operations.errors.above_available",
  "operations.errors.not_available",
] as const;

/**
 * Runs one operation on one session of the actor's merchant. The actor holds the permissions it
 * has on the session's section (an API key: what its scopes grant there).
 */
export async function runSessionOperation(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    session: OperableSession;
    operation: SessionOperation;
    /** A decimal string in the currency's decimals; null takes all that is left (refund, capture). */
    amount: string | null;
    lang: Language;
    baseUrl: string;
    addresses: PlatformAddresses;
    /** The reference the gateway is asked under, from the caller's Tracking-Key: a retry after a crash finds the operation it began. */
    operationReference: string | null;
  },
): Promise<SessionOperationOutcome> {
  const { session } = input;
  const operation = input.operation;
  if (!can(input.actor, operationPermission(operation))) return refuse("operations.errors.forbidden");
  if (!isMoneyOperation(operation)) return endUnpaidSession(db, { ...input, operation });
  const outcome = await runRowAction(db, {
    merchantId: input.merchantId,
    user: input.actor,
    transactionId: session.id,
    action: operation,
    amount: input.amount,
    lang: input.lang,
    baseUrl: input.baseUrl,
    addresses: input.addresses,
    plugin: session.plugin,
    operationReference: input.operationReference,
  });
  if (!outcome.ok) {
    if (outcome.code === "operations.errors.gateway") {
      return {
        ok: true,
        result: "failed",
        code: outcome.code,
        params: outcome.params ?? {},
        amount: await failedAmount(db, { ...input, operation }),
        approvalRequestId: null,
      };
    }
    const current = await findOperableSession(db, input.merchantId, { sessionId: session.session_id, orderNo: null });
    const available = money(
      current ? await operableAmount(db, input.merchantId, current, operation) : 0,
      session.currency_code,
    );
    if (outcome.code === "operations.errors.above_available") {
      return refuse("checkout_operations.errors.above_available", {
        field: "amount",
        params: { available, kind: word(`operations.kind_in_sentence.${operation}`) },
      });
    }
    return { ...outcome, params: { ...outcome.params, available } };
  }
  const requestId = "requestId" in outcome && outcome.requestId !== undefined ? outcome.requestId : null;
  const operationId = "operationId" in outcome && typeof outcome.operationId === "number" ? outcome.operationId : null;
  return {
    ok: true,
    result: requestId !== null || outcome.checking ? "pending" : "success",
    code: outcome.code,
    params: outcome.params ?? {},
    amount: await movedAmount(db, input.merchantId, { operationId, requestId }),
    approvalRequestId: requestId,
  };
}

/**
 * What an operation could still take: what is available on the payment, when the gateway that took
 * it is still the merchant's and does that operation; else nothing (a refusal never names an amount
 * the platform would then refuse too).
 */
async function operableAmount(db: DB, merchantId: number, session: OperableSession, operation: OperationKind) {
  if (!session.gateway_code) return 0;
  const gateway = await findMerchantGateway(db, merchantId, session.gateway_code);
  return gateway && gatewaySupports(gateway.kind, operation) ? availableAmount(session, operation) : 0;
}

/** What an operation done or asked for takes: its own record's amount (the core settled "all that is left" under its lock). */
async function movedAmount(db: DB, merchantId: number, ids: { operationId: number | null; requestId: number | null }) {
  if (ids.operationId !== null) {
    const row = await db
      .selectFrom("transaction_operations")
      .select("amount")
      .where("merchant_id", "=", merchantId)
      .where("id", "=", ids.operationId)
      .executeTakeFirst();
    if (row) return Number(row.amount);
  }
  if (ids.requestId !== null) {
    const row = await db
      .selectFrom("operation_requests")
      .select("amount")
      .where("merchant_id", "=", merchantId)
      .where("id", "=", ids.requestId)
      .executeTakeFirst();
    if (row) return Number(row.amount);
  }
  return null;
}

/** What a refused operation asked for: the one sent under the caller's reference, else what was asked or all that was left. */
async function failedAmount(
  db: DB,
  input: {
    merchantId: number;
    session: OperableSession;
    operation: OperationKind;
    amount: string | null;
    operationReference: string | null;
  },
) {
  if (input.operationReference) {
    const sent = await db
      .selectFrom("transaction_operations")
      .select("amount")
      .where("merchant_id", "=", input.merchantId)
      .where("reference", "=", input.operationReference)
      .executeTakeFirst();
    if (sent) return Number(sent.amount);
  }
  const asked = input.amount ? parseAmount(input.amount, input.session.currency_code) : null;
  return asked?.ok ? asked.minor : availableAmount(input.session, input.operation);
}

/**
 * Cancels or expires a session nobody has paid. Refused once it is paid or ended, and while a
 * payment is in flight (an attempt still pending at its gateway may yet bring money: it is left to
 * finish or to be found out by the reconciler). Under the transaction's lock, so a payment started
 * at the same moment is either seen here or finds the session ended; a payment the gateway
 * completes after all is still recorded (an ended link takes what the gateway took).
 */
async function endUnpaidSession(
  db: DB,
  input: { merchantId: number; actor: Actor; session: OperableSession; operation: "cancel" | "expire" },
): Promise<SessionOperationOutcome> {
  const to: TransactionState = input.operation === "cancel" ? "canceled" : "expired";
  return writeTransaction(db, async (trx): Promise<SessionOperationOutcome> => {
    let locked = trx
      .selectFrom("transactions")
      .select(["id", "order_no", "state"])
      .where("merchant_id", "=", input.merchantId)
      .where("id", "=", input.session.id)
      .where("deleted_at", "is", null);
    if (engineOf(trx) === "postgres") locked = locked.forUpdate();
    const transaction = await locked.executeTakeFirst();
    if (!transaction) return refuse("api.not_found");
    const notOpen = refuse(`checkout_operations.errors.not_open.${input.operation}`, {
      params: { state: word(`states.${transaction.state}`) },
    });
    if (!PAYABLE_STATES.includes(transaction.state)) return notOpen;
    const inFlight = await trx
      .selectFrom("payment_attempts")
      .select("id")
      .where("transaction_id", "=", transaction.id)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (inFlight)
      return refuse("checkout_operations.errors.attempt_in_flight", {
        params: { retryAfter: await secondsUntilAttemptsMayEnd(trx, transaction.id) },
      });
    const cause =
      input.operation === "cancel"
        ? ({ kind: "canceled", actor: { id: input.actor.id, username: input.actor.username } } as const)
        : ({ kind: "expired" } as const);
    const moved = await transitionTransaction(trx, transaction.id, to, cause, { from: PAYABLE_STATES });
    if (!moved.ok) return notOpen;
    // Canceled as the dashboard cancels a request nobody paid; expired with an entry of its own (the
    // platform's own expiry has no one to name), both under the transaction's order number.
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: input.operation === "cancel" ? "transaction_cancel" : "checkout_session_expired",
      params: { orderNo: transaction.order_no },
      objectType: "transaction",
      objectId: transaction.id,
    });
    return {
      ok: true,
      result: "success",
      code: `checkout_operations.done.${input.operation}`,
      params: {},
      amount: null,
      approvalRequestId: null,
    };
  });
}

/**
 * When a payment in flight may next end, in whole seconds from now (an answer's Retry-After): the
 * platform's next inquiry at the gateway, at the latest the end of the gateway's payment session
 * plus the reconciler's grace, after which the reconciler ends an attempt the gateway has nothing
 * for. The customer finishing at the gateway ends it sooner.
 */
async function secondsUntilAttemptsMayEnd(db: DB, transactionId: string): Promise<number> {
  const attempts = await db
    .selectFrom("payment_attempts")
    .select(["gateway_kind", "created_at", "next_inquiry_at"])
    .where("transaction_id", "=", transactionId)
    .where("state", "=", "pending")
    .execute();
  const at = now().getTime();
  const ends = attempts.map((attempt) => {
    const minutes = isGatewayKind(attempt.gateway_kind) ? (GATEWAY_KINDS[attempt.gateway_kind].sessionMinutes ?? 0) : 0;
    const sessionEnd = Date.parse(attempt.created_at) + minutes * 60_000 + reconcilerGraceMs();
    return attempt.next_inquiry_at ? Math.min(Date.parse(attempt.next_inquiry_at), sessionEnd) : sessionEnd;
  });
  const soonest = ends.length ? Math.min(...ends) : at;
  return Math.max(1, Math.ceil((soonest - at) / 1000));
}
