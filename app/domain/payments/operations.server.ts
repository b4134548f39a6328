import { errorField, log } from "~/lib/log.server";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { publishLive } from "~/lib/live.server";
import type { OperationKind, TransactionState } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { can, type Actor, type PermissionHolder } from "~/domain/identity/permissions";
import { REFUND_MAIL_JOB } from "~/domain/messaging/payment-mail.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import { enqueueJob } from "~/lib/jobs.server";
import { newTrackId } from "~/lib/ids.server";
import { exponentOf, parseAmount, toDecimalString } from "~/lib/money";
import { money, refuse, word, type Refusal, type TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";
import type { PlatformAddresses } from "./attempts.server";
import { findMerchantGateway, toGatewayConfig } from "./gateway-settings.server";
import type { OperationInquiry, OperationResult } from "./gateways/gateway";
import { adapterFor, gatewaySupports } from "./gateways/registry";
import { bumpTotals } from "./running-totals.server";
import { recordPaidStatistics } from "./statistics-rollup.server";
import { transitionTransaction, webhookTransaction } from "./transaction-state.server";
import { emitWebhookEvent } from "~/domain/integrations/webhooks.server";

export const OPERATION_PERMISSIONS = {
  refund: "refund_paymenttransaction",
  capture: "capture_paymenttransaction",
  void: "void_paymenttransaction",
} as const;

/** Operations still reserving their amount: asked, or waiting to learn what the gateway did. */
const RESERVING = ["pending", "attention"] as const;

/**
 * How long an operation is left to the request that sent it before the reconciler asks the gateway
 * about it: never less than the longest a request may wait for its gateway (two calls of 10 s).
 */
export function operationGraceMs() {
  return Math.max(30_000, env().RECONCILER_GRACE_SECONDS * 1000);
}

type Money = Pick<
  {
    state: TransactionState;
    paid_amount: number;
    captured_amount: number;
    refunded_amount: number;
    voided_amount: number;
    gateway_code: string | null;
    paid_attempt_id: string | null;
  },
  "state" | "paid_amount" | "captured_amount" | "refunded_amount" | "voided_amount" | "gateway_code" | "paid_attempt_id"
>;

/**
 * How much of a transaction's own payment an operation may still take, in minor units (dashboard
 * spec §3 available_amount): refunds come out of what was captured; a capture or a void out of an
 * authorization nothing has been taken from yet. Reserved amounts of operations in flight count.
 * Duplicate payments have their own (duplicateAvailable).
 */
export function availableAmount(transaction: Money, kind: OperationKind): number {
  if (!transaction.paid_attempt_id || !transaction.gateway_code) return 0;
  if (kind === "refund") {
    if (transaction.state !== "paid" && transaction.state !== "refunded") return 0;
    return Math.max(0, transaction.captured_amount - transaction.refunded_amount - transaction.voided_amount);
  }
  if (transaction.state !== "authorized" || transaction.captured_amount > 0 || transaction.voided_amount > 0) return 0;
  return transaction.paid_amount;
}

type DuplicateAttempt = { id: string; total: number; authorized_only: number; gateway_code: string };

/**
 * What a duplicate payment (a captured attempt that did not pay its transaction: two tabs, a
 * payment after another) still has to give back: a refund of what was captured, or a void of an
 * authorization; reserved amounts of operations in flight count.
 */
async function duplicateAvailable(db: DB, attempt: DuplicateAttempt, kind: OperationKind): Promise<number> {
  if (kind === "capture") return 0;
  if ((kind === "void") !== Boolean(attempt.authorized_only)) return 0;
  const taken = await db
    .selectFrom("transaction_operations")
    .select((eb) => eb.fn.sum<number>("amount").as("total"))
    .where("attempt_id", "=", attempt.id)
    .where((eb) => eb.or([eb("state", "=", "succeeded"), eb("state", "in", RESERVING)]))
    .executeTakeFirst();
  return Math.max(0, attempt.total - Number(taken?.total ?? 0));
}

/** The captured attempts of a transaction besides the one that paid it, with what each may still give back. */
export async function duplicatePayments(db: DB, merchantId: number, transactionId: string) {
  const transaction = await db
    .selectFrom("transactions")
    .select(["paid_attempt_id"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", transactionId)
    .executeTakeFirst();
  if (!transaction) return [];
  let query = db
    .selectFrom("payment_attempts")
    .select([
      "id",
      "total",
      "authorized_only",
      "gateway_code",
      "currency_code",
      "completed_at",
      "track_id",
      "payment_id",
    ])
    .where("merchant_id", "=", merchantId)
    .where("transaction_id", "=", transactionId)
    .where("state", "=", "success");
  if (transaction.paid_attempt_id) query = query.where("id", "!=", transaction.paid_attempt_id);
  const attempts = await query.orderBy("completed_at").execute();
  return Promise.all(
    attempts.map(async (attempt) => {
      const kind: OperationKind = attempt.authorized_only ? "void" : "refund";
      return { ...attempt, kind, available: await duplicateAvailable(db, attempt, kind) };
    }),
  );
}

/**
 * A refund, capture or void went through (200), became a request waiting for a checker (201,
 * `requestId`), or was sent but the gateway's answer is not known yet (202, `checking`: the
 * reconciler finds it out); the code is the message's translation key, `params` what it says.
 */
export type OperationOutcome =
  { ok: true; code: string; params: TextParams; operationId?: number; requestId?: number; checking?: true } | Refusal;

const TRANSACTION_COLUMNS = [
  "id",
  "merchant_id",
  "plugin",
  "order_no",
  "state",
  "currency_code",
  "paid_amount",
  "captured_amount",
  "refunded_amount",
  "voided_amount",
  "gateway_code",
  "paid_attempt_id",
  "created_at",
] as const;

async function lockTransaction(trx: DB, merchantId: number, id: string, options: { deleted?: boolean } = {}) {
  let query = trx
    .selectFrom("transactions")
    .select(TRANSACTION_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id);
  if (!options.deleted) query = query.where("deleted_at", "is", null);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

type LockedTransaction = NonNullable<Awaited<ReturnType<typeof lockTransaction>>>;

/** The amount asked for, checked against what is available; blank means all of it. Void always takes it all. */
function checkAmount(
  kind: OperationKind,
  text: string | null | undefined,
  currency: string,
  available: number,
): { ok: true; minor: number } | Refusal {
  if (available <= 0) return refuse("operations.errors.not_available");
  if (kind === "void" || text === null || text === undefined || String(text).trim() === "")
    return { ok: true, minor: available };
  const parsed = parseAmount(String(text), currency);
  if (!parsed.ok) {
    const code =
      parsed.error === "money.too_many_decimals"
        ? "operations.errors.decimals"
        : parsed.error === "money.thousands_separator"
          ? parsed.error
          : "operations.errors.amount";
    return refuse(code, { field: "amount" });
  }
  if (parsed.minor <= 0) return refuse("operations.errors.amount", { field: "amount" });
  if (parsed.minor > available) return refuse("operations.errors.above_available", { field: "amount" });
  return { ok: true, minor: parsed.minor };
}

/** Which payment of the transaction an operation takes money from: its own, or a duplicate one. */
type Source = { ok: true; attemptId: string; duplicate: boolean; gatewayCode: string; available: number };

async function sourceOf(
  trx: DB,
  transaction: LockedTransaction,
  kind: OperationKind,
  attemptId: string | null | undefined,
): Promise<Source | Refusal> {
  if (!attemptId || attemptId === transaction.paid_attempt_id) {
    if (!transaction.paid_attempt_id || !transaction.gateway_code) return refuse("operations.errors.not_available");
    return {
      ok: true,
      attemptId: transaction.paid_attempt_id,
      duplicate: false,
      gatewayCode: transaction.gateway_code,
      available: availableAmount(transaction, kind),
    };
  }
  const attempt = await trx
    .selectFrom("payment_attempts")
    .select(["id", "total", "authorized_only", "gateway_code"])
    .where("id", "=", attemptId)
    .where("transaction_id", "=", transaction.id)
    .where("state", "=", "success")
    .executeTakeFirst();
  if (!attempt) return refuse("operations.errors.not_available");
  return {
    ok: true,
    attemptId: attempt.id,
    duplicate: true,
    gatewayCode: attempt.gateway_code,
    available: await duplicateAvailable(trx, attempt, kind),
  };
}

const RESERVED_COLUMN = { refund: "refunded_amount", capture: "captured_amount", void: "voided_amount" } as const;

/**
 * What the platform itself notes on an operation, kept as a translation key and written out in the
 * reader's language (a gateway's own refusal is kept as the gateway wrote it).
 */
export const OPERATION_NOTES = {
  gatewayRemoved: "operations.notes.gateway_removed",
  neverReceived: "operations.notes.never_received",
  unanswered: "operations.notes.unanswered",
  settledByHand: "operations.notes.settled_by_hand",
} as const;

/** An operation's message as words for audit lines: a note of ours translated where it is read, a gateway's as it is. */
export function messageParam(message: string) {
  return message.startsWith("operations.notes.") ? word(message) : message.slice(0, 200);
}

/**
 * Who asks for an operation: a user, or the platform itself (`PLATFORM_ACTOR`, no user) giving back
 * money that should not have been taken (returns.server.ts).
 */
export type OperationActor = PermissionHolder & { id: number | null; username: string };

/** The platform as the maker of a refund or void it asks for by itself: it may ask, never approve. */
export const PLATFORM_ACTOR: OperationActor = {
  id: null,
  // Marked as the audit log marks who is not a user, so that no username can take it (makerName shows it).
  username: "~system",
  is_superuser: 0,
  permissions: [OPERATION_PERMISSIONS.refund, OPERATION_PERMISSIONS.void],
};

/** The actor as the audit log names it. */
function auditActorOf(actor: OperationActor) {
  return actor.id === null ? ("system" as const) : { id: actor.id, username: actor.username };
}

type OperationInput = {
  merchantId: number;
  actor: OperationActor;
  transactionId: string;
  kind: OperationKind;
  amount?: string | null;
  attemptId?: string | null;
  /**
   * The reference to send the operation under; derived from the caller's Idempotency-Key, so that a
   * retry of a request that died finds the operation it started (resumeOperation) instead of making
   * a second one. Unset: a fresh one.
   */
  reference?: string | null;
  /** Why the user asks for it: in the audit log with the operation, and on the request a checker reads. */
  reason?: string | null;
};

/** The reason given for an operation, in the audit log in the same database transaction as the operation or its request. */
async function recordReason(trx: DB, input: OperationInput, transaction: { id: string; order_no: number }) {
  if (!input.reason) return;
  await recordAudit(trx, {
    merchantId: input.merchantId,
    actor: auditActorOf(input.actor),
    action: "operation_reason",
    params: {
      kind: word(`operations.kind_in_sentence.${input.kind}`),
      orderNo: transaction.order_no,
      reason: input.reason,
    },
    objectType: "transaction",
    objectId: transaction.id,
  });
}

/**
 * What an operation may do, under the transaction's row lock: the transaction, the payment the money
 * comes from, a gateway that supports the operation, and an amount within what is available. Shared
 * by an operation done at once and one asked of a checker.
 */
async function lockedOperationCheck(trx: DB, input: OperationInput) {
  const transaction = await lockTransaction(trx, input.merchantId, input.transactionId);
  if (!transaction) return refuse("api.not_found");
  const source = await sourceOf(trx, transaction, input.kind, input.attemptId);
  if (!source.ok) return source;
  const { attemptId, duplicate, gatewayCode, available } = source;
  const gateway = await findMerchantGateway(trx, input.merchantId, gatewayCode);
  if (!gateway || !gatewaySupports(gateway.kind, input.kind)) return refuse("operations.errors.not_supported");
  const amount = checkAmount(input.kind, input.amount, transaction.currency_code, available);
  if (!amount.ok) return amount;
  return { ok: true as const, transaction, attemptId, duplicate, gateway, amount: amount.minor };
}

/**
 * Reserves the amount and records the operation as pending, with the reference it is sent to the
 * gateway under (the first half of executeOperation; a crash after it is the reconciler's to
 * settle); run inside writeTransaction. The transaction's own payment reserves on its
 * columns; a duplicate payment's reservation is the pending operation itself.
 */
export async function reserveOperation(
  trx: DB,
  input: OperationInput & { requestId: number | null },
): Promise<{ ok: true; operationId: number } | Refusal> {
  const checked = await lockedOperationCheck(trx, input);
  if (!checked.ok) return checked;
  const { transaction, attemptId, duplicate, gateway, amount } = checked;
  if (!duplicate) {
    const column = RESERVED_COLUMN[input.kind];
    await trx
      .updateTable("transactions")
      .set((eb) => ({ [column]: eb(column, "+", amount) }))
      .where("id", "=", transaction.id)
      .execute();
  }
  const created = nowIso();
  const operation = await trx
    .insertInto("transaction_operations")
    .values({
      merchant_id: input.merchantId,
      transaction_id: transaction.id,
      attempt_id: attemptId,
      kind: input.kind,
      state: "pending",
      amount: amount,
      currency_code: transaction.currency_code,
      gateway_code: gateway.code,
      gateway_reference: null,
      reference: input.reference ?? newTrackId(),
      message: null,
      requested_by: input.actor.id,
      approval_request_id: input.requestId,
      created_at: created,
      completed_at: null,
      next_check_at: addMs(now(), operationGraceMs()).toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // An approved request's reason was recorded when it was asked for.
  if (input.requestId === null) await recordReason(trx, input, transaction);
  return { ok: true, operationId: operation.id };
}

/** An operation with what sending it and recording its outcome need. */
async function loadOperation(db: DB, operationId: number) {
  return db
    .selectFrom("transaction_operations as op")
    .innerJoin("transactions as t", "t.id", "op.transaction_id")
    .leftJoin("payment_attempts as a", (join) =>
      join.on((eb) => eb("a.id", "=", eb.fn.coalesce("op.attempt_id", "t.paid_attempt_id"))),
    )
    .leftJoin("users as u", "u.id", "op.requested_by")
    .select([
      "op.id",
      "op.merchant_id",
      "op.transaction_id",
      "op.attempt_id",
      "op.kind",
      "op.state",
      "op.amount",
      "op.currency_code",
      "op.gateway_code",
      "op.reference",
      "op.checks",
      "op.created_at",
      "op.requested_by",
      "op.approval_request_id",
      "t.order_no",
      "t.paid_attempt_id",
      "a.gateway_reference",
      "a.track_id",
      "a.payment_id",
      "u.username",
    ])
    .where("op.id", "=", operationId)
    .executeTakeFirst();
}

export type LoadedOperation = NonNullable<Awaited<ReturnType<typeof loadOperation>>>;

function targetOf(operation: LoadedOperation) {
  return {
    gatewayReference: operation.gateway_reference ?? null,
    trackId: operation.track_id ?? "",
    paymentId: operation.payment_id ?? null,
  };
}

async function gatewayConfigOf(db: DB, operation: LoadedOperation, addresses: PlatformAddresses) {
  const gateway = await findMerchantGateway(db, operation.merchant_id, operation.gateway_code);
  return gateway ? { kind: gateway.kind, config: toGatewayConfig(gateway, addresses) } : undefined;
}

/**
 * Sends a reserved operation to its gateway under its reference and records the answer. A refusal
 * releases the reservation; no answer (a timeout, a dropped connection) leaves it pending for the
 * reconciler, which asks the gateway what it did: the money is never released on a guess.
 */
export async function sendOperation(
  db: DB,
  operationId: number,
  addresses: PlatformAddresses,
): Promise<OperationOutcome> {
  const operation = await loadOperation(db, operationId);
  if (!operation) return refuse("api.not_found");
  const amountParam = money(operation.amount, operation.currency_code);
  const found = await gatewayConfigOf(db, operation, addresses);
  if (!found) {
    await recordOperationResult(db, operationId, { ok: false, message: OPERATION_NOTES.gatewayRemoved });
    return refuse("operations.errors.not_supported");
  }
  const adapter = adapterFor(found.kind);
  const reference = operation.reference ?? undefined;
  let result: OperationResult;
  try {
    result =
      operation.kind === "refund"
        ? await adapter.refund(found.config, targetOf(operation), operation.amount, reference)
        : operation.kind === "capture"
          ? await adapter.capture(found.config, targetOf(operation), operation.amount, reference)
          : await adapter.void(found.config, targetOf(operation), reference);
  } catch (error) {
    log.warn({ operation_id: operationId, error: errorField(error) }, "operation: no answer from the gateway");
    return {
      ok: true,
      code: `operations.checking.${operation.kind}`,
      params: { amount: amountParam },
      operationId,
      checking: true,
    };
  }
  await recordOperationResult(db, operationId, result);
  if (!result.ok) return refuse("operations.errors.gateway", { params: { message: messageParam(result.message) } });
  return { ok: true, code: `operations.done.${operation.kind}`, params: { amount: amountParam }, operationId };
}

/**
 * A retried request's operation: the one already made under this reference, if any. It must be the
 * same operation the retry asks for (transaction, kind, payment, amount), else the retry is refused.
 * One still pending is sent again under the same reference — the gateway does it once whatever it did
 * before — once this retry has claimed it from the reconciler (which would otherwise ask about it at
 * the same moment); one the reconciler is already asking about answers "being checked". One settled
 * answers as it was settled. Null: no such operation yet.
 */
export async function resumeOperation(
  db: DB,
  input: {
    merchantId: number;
    transactionId: string;
    kind: OperationKind;
    amount?: string | null;
    attemptId?: string | null;
    reference: string;
    addresses: PlatformAddresses;
  },
): Promise<OperationOutcome | null> {
  const operation = await db
    .selectFrom("transaction_operations as op")
    .innerJoin("transactions as t", "t.id", "op.transaction_id")
    .select([
      "op.id",
      "op.transaction_id",
      "op.kind",
      "op.state",
      "op.amount",
      "op.currency_code",
      "op.message",
      "op.attempt_id",
      "op.next_check_at",
      "t.paid_attempt_id",
    ])
    .where("op.merchant_id", "=", input.merchantId)
    .where("op.reference", "=", input.reference)
    .executeTakeFirst();
  if (!operation) return null;
  const asked = input.amount ? parseAmount(input.amount, operation.currency_code) : null;
  const sameAttempt =
    (input.attemptId ?? operation.paid_attempt_id) === (operation.attempt_id ?? operation.paid_attempt_id);
  if (
    operation.transaction_id !== input.transactionId ||
    operation.kind !== input.kind ||
    !sameAttempt ||
    (asked && (!asked.ok || asked.minor !== operation.amount))
  ) {
    return refuse("operations.errors.other_request");
  }
  const amount = money(operation.amount, operation.currency_code);
  const checking: OperationOutcome = {
    ok: true,
    code: `operations.checking.${operation.kind}`,
    params: { amount },
    operationId: operation.id,
    checking: true,
  };
  if (operation.state === "pending") {
    const claimed = await db
      .updateTable("transaction_operations")
      .set({ next_check_at: addMs(now(), operationGraceMs()).toISOString() })
      .where("id", "=", operation.id)
      .where("state", "=", "pending")
      .where("next_check_at", ">", nowIso())
      .where("next_check_at", "=", operation.next_check_at)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1 ? sendOperation(db, operation.id, input.addresses) : checking;
  }
  if (operation.state === "succeeded")
    return { ok: true, code: `operations.done.${operation.kind}`, params: { amount }, operationId: operation.id };
  if (operation.state === "attention") return checking;
  return refuse("operations.errors.gateway", { params: { message: messageParam(operation.message ?? "") } });
}

/**
 * Records what the gateway did with an operation, once: whichever of the request that sent it and
 * the reconciler that asked about it gets here first settles it (ledger, totals, state) or
 * releases its reservation; the other finds it settled and changes nothing. Answers whether it
 * changed anything.
 */
export async function recordOperationResult(
  db: DB,
  operationId: number,
  result: OperationResult,
  options: { by?: "reconciler" | "person"; actor?: Actor; note?: string } = {},
) {
  const operation = await loadOperation(db, operationId);
  if (!operation) return false;
  const changed = await writeTransaction(db, async (trx) => {
    // The row lock comes first: the ledger row's foreign key takes a share lock on the transaction,
    // and two completions upgrading theirs to FOR UPDATE afterwards deadlock on Postgres.
    const current = await lockTransaction(trx, operation.merchant_id, operation.transaction_id, { deleted: true });
    if (!current) return false;
    const completed = nowIso();
    const moved = await trx
      .updateTable("transaction_operations")
      .set(
        result.ok
          ? {
              state: "succeeded",
              gateway_reference: result.reference ?? null,
              completed_at: completed,
              next_check_at: null,
            }
          : { state: "failed", message: result.message.slice(0, 500), completed_at: completed, next_check_at: null },
      )
      .where("id", "=", operationId)
      // A person decides only what is still waiting for them; a gateway's answer also settles one still pending.
      .where("state", "in", options.by === "person" ? ["attention"] : RESERVING)
      .executeTakeFirst();
    const duplicate = Boolean(operation.attempt_id && operation.attempt_id !== current.paid_attempt_id);
    const column = RESERVED_COLUMN[operation.kind];
    if (options.by === "person") {
      // Whatever settled it first (the gateway's answer, another person) stands: a person never overrides it.
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await recordAudit(trx, {
        merchantId: operation.merchant_id,
        actor: options.actor ? { id: options.actor.id, username: options.actor.username } : "system",
        action: result.ok ? "operation_settled_done" : "operation_settled_not_done",
        params: { note: (options.note ?? "").slice(0, 500) },
        objectType: "transaction",
        objectId: current.id,
      });
    } else if (Number(moved.numUpdatedRows) !== 1) {
      // Released as failed, yet the gateway says it did it (its answer came after the reconciler
      // gave up on it): what the gateway did is a fact, so it is recorded, reserved again first.
      if (!result.ok) return false;
      const late = await trx
        .updateTable("transaction_operations")
        .set({
          state: "succeeded",
          gateway_reference: result.reference ?? null,
          message: null,
          completed_at: completed,
          next_check_at: null,
        })
        .where("id", "=", operationId)
        .where("state", "=", "failed")
        .executeTakeFirst();
      if (Number(late.numUpdatedRows) !== 1) return false;
      if (!duplicate) {
        await trx
          .updateTable("transactions")
          .set((eb) => ({ [column]: eb(column, "+", operation.amount) }))
          .where("id", "=", current.id)
          .execute();
      }
    }
    const amountParam = money(operation.amount, operation.currency_code);
    const actor =
      options.actor ??
      (operation.requested_by && operation.username
        ? { id: operation.requested_by, username: operation.username }
        : null);
    const audit = {
      merchantId: operation.merchant_id,
      actor: actor ? { id: actor.id, username: actor.username } : ("system" as const),
      objectType: "transaction",
      objectId: current.id,
    };
    const suffix = duplicate ? "_duplicate" : "";
    if (!result.ok) {
      // The gateway refused, or never had it: the reservation is given back.
      if (!duplicate) {
        await trx
          .updateTable("transactions")
          .set((eb) => ({ [column]: eb(column, "-", operation.amount) }))
          .where("id", "=", current.id)
          .execute();
      }
      await recordAudit(trx, {
        ...audit,
        action: `transaction_${operation.kind}${suffix}_failed`,
        params: { amount: amountParam, orderNo: current.order_no, message: messageParam(result.message) },
      });
      return true;
    }
    await trx
      .insertInto("ledger_entries")
      .values({
        merchant_id: operation.merchant_id,
        transaction_id: current.id,
        attempt_id: `operation-${operationId}`,
        kind: operation.kind,
        amount: operation.amount,
        fee: 0,
        currency_code: operation.currency_code,
        created_at: completed,
      })
      .execute();
    await recordAudit(trx, {
      ...audit,
      action: `transaction_${operation.kind}${suffix}`,
      params: { amount: amountParam, orderNo: current.order_no },
    });
    // Told to the merchant's systems once the transaction's state reflects it (below).
    const tell = async () => {
      const transaction = await trx
        .selectFrom("transactions")
        .select(["id", "order_no", "plugin", "state", "amount", "currency_code", "customer_email"])
        .where("id", "=", current.id)
        .executeTakeFirstOrThrow();
      await emitWebhookEvent(trx, operation.merchant_id, `${operation.kind}.succeeded`, {
        transaction: webhookTransaction(transaction),
        operation: {
          id: operationId,
          kind: operation.kind,
          amount: toDecimalString(operation.amount, operation.currency_code),
          currency_code: operation.currency_code,
          duplicate_payment: duplicate,
        },
      });
    };
    // The customer's mail is written by a job: nothing about a mail can undo the record of the money.
    if (operation.kind === "refund") await enqueueJob(trx, REFUND_MAIL_JOB, { operationId });
    if (duplicate) {
      await tell();
      return true;
    }
    const key = {
      merchantId: operation.merchant_id,
      plugin: current.plugin,
      currency: operation.currency_code,
      at: completed,
    };
    const cause = { kind: operation.kind, operationId };
    if (operation.kind === "capture") {
      const paid = await transitionTransaction(trx, current.id, "paid", cause);
      await bumpTotals(trx, key, { received_count: 1, received_amount: operation.amount });
      if (paid.ok) await recordPaidStatistics(trx, { ...current, deleted_at: null }, 1, current.captured_amount);
    } else if (operation.kind === "void") {
      await transitionTransaction(trx, current.id, "voided", cause);
    } else {
      await bumpTotals(trx, key, { refunded_amount: operation.amount });
      // Refunded in full only by refunds that went through: amounts still reserved by others in flight may yet come back.
      let done = trx
        .selectFrom("transaction_operations")
        .select((eb) => eb.fn.sum<number>("amount").as("total"))
        .where("transaction_id", "=", current.id)
        .where("kind", "=", "refund")
        .where("state", "=", "succeeded");
      done = current.paid_attempt_id
        ? done.where((eb) => eb.or([eb("attempt_id", "is", null), eb("attempt_id", "=", current.paid_attempt_id!)]))
        : done.where("attempt_id", "is", null);
      const total = await done.executeTakeFirst();
      if (Number(total?.total ?? 0) >= current.captured_amount) {
        const refunded = await transitionTransaction(trx, current.id, "refunded", cause);
        if (refunded.ok && refunded.from === "paid")
          await recordPaidStatistics(trx, { ...current, deleted_at: null }, -1, current.captured_amount);
      }
    }
    await tell();
    return true;
  });
  if (changed && operation.approval_request_id !== null)
    await recordRequestResult(
      db,
      operation.approval_request_id,
      result.ok
        ? {
            ok: true,
            code: `operations.done.${operation.kind}`,
            params: { amount: money(operation.amount, operation.currency_code) },
          }
        : refuse("operations.errors.gateway", { params: { message: messageParam(result.message) } }),
    );
  return changed;
}

/**
 * A refund, capture or void asked by a user. With operations approval on, a maker's request
 * waits for a checker (Operations Requests); superusers and checkers execute directly.
 */
export async function requestOperation(
  db: DB,
  input: OperationInput & {
    addresses: PlatformAddresses;
    /** Written in the database transaction that makes the request for a checker, if one is made. */
    onRequested?: (trx: DB, requestId: number) => Promise<void>;
  },
): Promise<OperationOutcome> {
  if (!can(input.actor, OPERATION_PERMISSIONS[input.kind])) return refuse("operations.errors.forbidden");
  if (!(await needsApproval(db, input.merchantId, input.actor)))
    return executeOperation(db, { ...input, requestId: null });
  return createOperationRequest(db, input, input.onRequested);
}

/** Whether this user's refund, capture or void waits for a checker: operations approval on, and they are not one. */
async function needsApproval(db: DB, merchantId: number, actor: PermissionHolder) {
  if (can(actor, "approve_operations")) return false;
  const merchant = await db
    .selectFrom("merchants")
    .select("operations_approval")
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return Boolean(merchant.operations_approval);
}

/** The request still waiting on this transaction, if any (at most one: a unique index keeps it so). */
function findPendingRequest(db: DB, merchantId: number, transactionId: string) {
  return db
    .selectFrom("operation_requests")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("transaction_id", "=", transactionId)
    .where("state", "=", "pending")
    .executeTakeFirst();
}

/** Reserves the amount, asks the gateway, then records the outcome; never holds a database lock while the gateway answers. */
export async function executeOperation(
  db: DB,
  input: OperationInput & { addresses: PlatformAddresses; requestId: number | null },
): Promise<OperationOutcome> {
  const reserved = await writeTransaction(db, (trx) => reserveOperation(trx, input));
  if (!reserved.ok) return reserved;
  return sendOperation(db, reserved.operationId, input.addresses);
}

/**
 * A person's answer for an operation the gateway could not give one for (left in `attention`): done
 * at the gateway — recorded as any answer, ledger and totals — or not done — its reservation given
 * back. For superusers, from the reconciliation page, with what they checked (the bank's statement,
 * the acquirer's portal) in the audit log.
 */
export async function settleOperationByHand(
  db: DB,
  input: { merchantId: number; operationId: number; actor: Actor; done: boolean; note: string },
) {
  const operation = await db
    .selectFrom("transaction_operations")
    .select(["id", "state"])
    .where("id", "=", input.operationId)
    .where("merchant_id", "=", input.merchantId)
    .executeTakeFirst();
  if (!operation || operation.state !== "attention") return false;
  // The person's words go to the audit log; the operation itself says it was decided by hand.
  const result: OperationResult = input.done ? { ok: true } : { ok: false, message: OPERATION_NOTES.settledByHand };
  return recordOperationResult(db, operation.id, result, { by: "person", actor: input.actor, note: input.note });
}

/** Marks pending requests past their time as expired (one transaction's, or all of a merchant's). */
export async function expireOperationRequests(db: DB, merchantId: number, transactionId?: string) {
  let query = db
    .updateTable("operation_requests")
    .set({ state: "expired", decided_at: nowIso() })
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "pending")
    .where("expires_at", "<=", nowIso());
  if (transactionId) query = query.where("transaction_id", "=", transactionId);
  await query.execute();
}

async function createOperationRequest(
  db: DB,
  input: OperationInput,
  onRequested?: (trx: DB, requestId: number) => Promise<void>,
): Promise<OperationOutcome> {
  await expireOperationRequests(db, input.merchantId, input.transactionId);
  const outcome = await writeTransaction(db, async (trx): Promise<OperationOutcome> => {
    const checked = await lockedOperationCheck(trx, input);
    if (!checked.ok) return checked;
    const { transaction, attemptId, duplicate, gateway, amount } = checked;
    if (await findPendingRequest(trx, input.merchantId, transaction.id))
      return refuse("operations.errors.request_pending");
    const created = nowIso();
    const expires = new Date(Date.parse(created) + env().OPERATION_REQUEST_TTL_HOURS * 3600_000).toISOString();
    const request = await trx
      .insertInto("operation_requests")
      .values({
        merchant_id: input.merchantId,
        transaction_id: transaction.id,
        attempt_id: duplicate ? attemptId : null,
        kind: input.kind,
        amount: amount,
        currency_code: transaction.currency_code,
        gateway_code: gateway.code,
        state: "pending",
        maker_id: input.actor.id,
        maker_name: input.actor.username,
        checker_id: null,
        checker_name: null,
        note: input.reason ?? null,
        result_message: null,
        created_at: created,
        expires_at: expires,
        decided_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await onRequested?.(trx, request.id);
    const amountParam = money(amount, transaction.currency_code);
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: auditActorOf(input.actor),
      action: "operation_requested",
      params: {
        kind: word(`operations.kind_in_sentence.${input.kind}`),
        amount: amountParam,
        orderNo: transaction.order_no,
      },
      objectType: "transaction",
      objectId: transaction.id,
    });
    await recordReason(trx, input, transaction);
    await publishLive(trx, {
      merchantId: input.merchantId,
      permission: "approve_operations",
      type: "requests_changed",
      data: { kind: "operation", id: request.id },
    });
    return { ok: true, code: "operations.requested", params: { amount: amountParam }, requestId: request.id };
  }).catch((error: unknown) => {
    // Two makers at once: the unique index keeps one pending request per transaction.
    if (/unique|duplicate/i.test(String(error))) return refuse("operations.errors.request_pending");
    throw error;
  });
  return outcome;
}

/** What running an approved request answered, kept on the request in codes (and in English for old readers). */
async function recordRequestResult(db: DB, requestId: number, outcome: OperationOutcome) {
  const result = { code: outcome.code, params: outcome.params ?? {} };
  await db
    .updateTable("operation_requests")
    .set({
      result: JSON.stringify(result),
      result_message: texts().line(result.code, result.params, "en").slice(0, 500),
    })
    .where("id", "=", requestId)
    .execute();
}

/**
 * A checker decides a pending request. Approval reserves the amount in the same database
 * transaction that moves the request, so an approved request has always either an operation
 * (then sent to the gateway, or settled by the reconciler after a crash) or the reason it could
 * not run; only the one update that moves it from pending wins, whichever process gets there first.
 */
export async function decideOperationRequest(
  db: DB,
  input: {
    merchantId: number;
    actor: Actor;
    requestId: number;
    decision: "approve" | "reject" | "cancel";
    addresses: PlatformAddresses;
  },
): Promise<OperationOutcome> {
  await expireOperationRequests(db, input.merchantId);
  const request = await db
    .selectFrom("operation_requests")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("id", "=", input.requestId)
    .executeTakeFirst();
  if (!request) return refuse("api.not_found");
  if (input.decision === "cancel") {
    if (request.maker_id !== input.actor.id && !can(input.actor, "approve_operations"))
      return refuse("operations.errors.forbidden");
  } else {
    if (!can(input.actor, "approve_operations")) return refuse("operations.errors.forbidden");
    if (request.maker_id === input.actor.id) return refuse("operations.errors.own_request");
  }
  if (request.state !== "pending")
    return refuse("operations.errors.decided", { params: { state: word(`requests.states.${request.state}`) } });
  const state = input.decision === "approve" ? "approved" : input.decision === "reject" ? "rejected" : "canceled";
  const decided = await writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable("operation_requests")
      .set({ state, checker_id: input.actor.id, checker_name: input.actor.username, decided_at: nowIso() })
      .where("id", "=", request.id)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { moved: false as const };
    await publishLive(trx, {
      merchantId: input.merchantId,
      permission: "approve_operations",
      type: "requests_changed",
      data: { kind: "operation", id: request.id },
    });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: `operation_request_${state}`,
      params: {
        kind: word(`operations.kind_in_sentence.${request.kind}`),
        id: request.id,
        // The platform's own requests read as such in each reader's language.
        maker: request.maker_name === PLATFORM_ACTOR.username ? word("payment_return.maker") : request.maker_name,
      },
      objectType: "transaction",
      objectId: request.transaction_id,
    });
    if (state !== "approved") return { moved: true as const };
    // The maker's request is what the operation runs as; the checker's approval is what lets it run.
    const reserved = await reserveOperation(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      transactionId: request.transaction_id,
      kind: request.kind,
      amount: toDecimalString(request.amount, request.currency_code),
      attemptId: request.attempt_id,
      requestId: request.id,
    });
    if (!reserved.ok) {
      // Approved, but it cannot run (refunded meanwhile…): the request says so, in the same write.
      const result = { code: reserved.code, params: reserved.params ?? {} };
      await trx
        .updateTable("operation_requests")
        .set({
          result: JSON.stringify(result),
          result_message: texts().line(result.code, result.params, "en").slice(0, 500),
        })
        .where("id", "=", request.id)
        .execute();
    }
    return { moved: true as const, reserved };
  });
  if (!decided.moved) return refuse("operations.errors.decided_meanwhile");
  if (!("reserved" in decided) || !decided.reserved) return { ok: true, code: `requests.done.${state}`, params: {} };
  if (!decided.reserved.ok) return decided.reserved;
  const outcome = await sendOperation(db, decided.reserved.operationId, input.addresses);
  // A settled outcome was written to the request with the operation; one still being checked is said now.
  if (outcome.ok && outcome.checking) await recordRequestResult(db, request.id, outcome);
  return outcome;
}

/**
 * The dialog's first step: what is available and whether the typed amount fits, without moving
 * money. Given the actor, it also says when their operation would become a request while one is
 * already waiting for this transaction, so a maker learns it before being asked 'Are you sure?'.
 * Given `attemptId`, it is about that duplicate payment.
 */
export async function previewOperation(
  db: DB,
  input: {
    merchantId: number;
    transactionId: string;
    kind: OperationKind;
    amount?: string | null;
    actor?: PermissionHolder;
    attemptId?: string | null;
  },
) {
  const transaction = await db
    .selectFrom("transactions")
    .select([
      "id",
      "order_no",
      "state",
      "currency_code",
      "paid_amount",
      "captured_amount",
      "refunded_amount",
      "voided_amount",
      "gateway_code",
      "paid_attempt_id",
    ])
    .where("merchant_id", "=", input.merchantId)
    .where("id", "=", input.transactionId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!transaction) return undefined;
  let available = 0;
  let attemptId: string | null = null;
  if (input.attemptId && input.attemptId !== transaction.paid_attempt_id) {
    const duplicate = (await duplicatePayments(db, input.merchantId, transaction.id)).find(
      (attempt) => attempt.id === input.attemptId,
    );
    if (duplicate && duplicate.kind === input.kind) {
      available = duplicate.available;
      attemptId = duplicate.id;
    }
  } else {
    available = availableAmount(transaction, input.kind);
  }
  const checked =
    input.amount === undefined ? null : checkAmount(input.kind, input.amount, transaction.currency_code, available);
  let blocked: Refusal | null = null;
  if (input.actor && (await needsApproval(db, input.merchantId, input.actor))) {
    await expireOperationRequests(db, input.merchantId, transaction.id);
    if (await findPendingRequest(db, input.merchantId, transaction.id))
      blocked = refuse("operations.errors.request_pending");
  }
  return {
    orderNo: transaction.order_no,
    currency: transaction.currency_code,
    /** Decimal places the amount may have: the currency's, or 3 with no currency (spec §5). */
    decimals: transaction.currency_code ? exponentOf(transaction.currency_code) : 3,
    blocked,
    /** The duplicate payment this is about, or null for the transaction's own payment. */
    attemptId,
    available: toDecimalString(available, transaction.currency_code),
    availableMinor: available,
    checked:
      checked &&
      (checked.ok ? { ok: true as const, amount: toDecimalString(checked.minor, transaction.currency_code) } : checked),
  };
}

/** How long the reconciler waits before asking again about an operation the gateway could not answer for. */
function nextCheckDelay(checks: number) {
  return Math.min(2 ** checks * 30_000, 30 * 60_000);
}

/** An operation the gateway has said nothing about for a day needs a person. */
const ATTENTION_AFTER_MS = 24 * 3_600_000;

/**
 * The reconciler's part for one operation left pending (its request died, or the gateway did not
 * answer): asks the gateway by the operation's reference and settles it, releases it, or, when the
 * gateway cannot say for long, marks it for a person (its amount stays reserved).
 */
export async function settlePendingOperation(
  db: DB,
  operationId: number,
  addresses: PlatformAddresses,
): Promise<"succeeded" | "failed" | "waiting" | "attention"> {
  const operation = await loadOperation(db, operationId);
  if (!operation || !(RESERVING as readonly string[]).includes(operation.state)) return "waiting";
  const found = await gatewayConfigOf(db, operation, addresses);
  let answer: OperationInquiry | undefined;
  if (found && operation.reference) {
    try {
      answer = await adapterFor(found.kind).inquireOperation(found.config, targetOf(operation), {
        kind: operation.kind,
        amount: operation.amount,
        reference: operation.reference,
      });
    } catch (error) {
      log.warn(
        { operation_id: operationId, error: errorField(error) },
        "operation: the gateway could not say what it did",
      );
    }
  }
  if (answer?.status === "succeeded") {
    await recordOperationResult(db, operationId, { ok: true, reference: answer.reference }, { by: "reconciler" });
    return "succeeded";
  }
  if (answer?.status === "failed" || answer?.status === "not_found") {
    const message = answer.status === "failed" ? answer.message : OPERATION_NOTES.neverReceived;
    await recordOperationResult(db, operationId, { ok: false, message }, { by: "reconciler" });
    return "failed";
  }
  const checks = operation.checks + 1;
  const attention =
    now().getTime() - Date.parse(operation.created_at) >= ATTENTION_AFTER_MS || !found || !operation.reference;
  await db
    .updateTable("transaction_operations")
    .set({
      checks,
      next_check_at: addMs(now(), nextCheckDelay(checks)).toISOString(),
      ...(attention ? { state: "attention" as const, message: OPERATION_NOTES.unanswered } : {}),
    })
    .where("id", "=", operationId)
    .where("state", "in", RESERVING)
    .execute();
  return attention ? "attention" : "waiting";
}

/** Operations pending past their grace period (or due for another check), oldest first. */
export async function dueOperations(db: DB, limit = 50) {
  return db
    .selectFrom("transaction_operations")
    .select("id")
    .where("state", "in", RESERVING)
    .where((eb) => eb.or([eb("next_check_at", "is", null), eb("next_check_at", "<=", nowIso())]))
    .where("created_at", "<=", addMs(now(), -operationGraceMs()).toISOString())
    .orderBy("created_at")
    .limit(limit)
    .execute();
}
