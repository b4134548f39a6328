import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { OperationKind, TransactionState } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { can, type Actor, type PermissionHolder } from "~/domain/identity/permissions";
import { nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import { exponentOf, parseAmount, toDecimalString } from "~/lib/money";
import { money, refuse, word, type Refusal, type TextParams } from "~/lib/outcome";
import type { PlatformAddresses } from "./attempts.server";
import { findMerchantGateway, toGatewayConfig } from "./gateway-settings.server";
import { adapterFor, gatewaySupports } from "./gateways/registry";
import { bumpTotals } from "./running-totals.server";
import { recordPaidStatistics } from "./statistics-rollup.server";
import { texts } from "~/lib/texts.server";
import { transitionTransaction } from "./transaction-state.server";

export const OPERATION_PERMISSIONS = {
  refund: "refund_paymenttransaction",
  capture: "capture_paymenttransaction",
  void: "void_paymenttransaction",
} as const;

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
 * How much of a transaction an operation may still take, in minor units (dashboard spec §3
 * available_amount): refunds come out of what was captured; a capture or a void out of an
 * authorization nothing has been taken from yet. Reserved amounts of operations in flight count.
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

/**
 * A refund, capture or void went through (200), or became a request waiting for a checker (201,
 * `requestId`); the code is the message's translation key, `params` what it says.
 */
export type OperationOutcome = { ok: true; code: string; params: TextParams; operationId?: number; requestId?: number } | Refusal;

async function lockTransaction(trx: DB, merchantId: number, id: string) {
  let query = trx
    .selectFrom("transactions")
    .select([
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
    ])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("deleted_at", "is", null);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The amount asked for, checked against what is available; blank means all of it. Void always takes it all. */
function checkAmount(kind: OperationKind, text: string | null | undefined, currency: string, available: number): { ok: true; minor: number } | Refusal {
  if (available <= 0) return refuse("operations.errors.not_available");
  if (kind === "void" || text === null || text === undefined || String(text).trim() === "") return { ok: true, minor: available };
  const parsed = parseAmount(String(text), currency);
  if (!parsed.ok) return refuse(parsed.error === "money.too_many_decimals" ? "operations.errors.decimals" : "operations.errors.amount", { field: "amount" });
  if (parsed.minor <= 0) return refuse("operations.errors.amount", { field: "amount" });
  if (parsed.minor > available) return refuse("operations.errors.above_available", { field: "amount" });
  return { ok: true, minor: parsed.minor };
}

/**
 * A refund, capture or void asked by a user. With operations approval on, a maker's request
 * waits for a checker (Operations Requests); superusers and checkers execute directly.
 */
export async function requestOperation(
  db: DB,
  input: { merchantId: number; actor: Actor; transactionId: string; kind: OperationKind; amount?: string | null; addresses: PlatformAddresses },
): Promise<OperationOutcome> {
  if (!can(input.actor, OPERATION_PERMISSIONS[input.kind])) return refuse("operations.errors.forbidden");
  if (!(await needsApproval(db, input.merchantId, input.actor))) return executeOperation(db, { ...input, requestId: null });
  return createOperationRequest(db, input);
}

/** Whether this user's refund, capture or void waits for a checker: operations approval on, and they are not one. */
async function needsApproval(db: DB, merchantId: number, actor: PermissionHolder) {
  if (can(actor, "approve_operations")) return false;
  const merchant = await db.selectFrom("merchants").select("operations_approval").where("id", "=", merchantId).executeTakeFirstOrThrow();
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
  input: { merchantId: number; actor: Actor; transactionId: string; kind: OperationKind; amount?: string | null; addresses: PlatformAddresses; requestId: number | null },
): Promise<OperationOutcome> {
  const reserved = await writeTransaction(db, async (trx) => {
    const transaction = await lockTransaction(trx, input.merchantId, input.transactionId);
    if (!transaction) return refuse("api.not_found");
    const gateway = transaction.gateway_code ? await findMerchantGateway(trx, input.merchantId, transaction.gateway_code) : undefined;
    if (!gateway || !gatewaySupports(gateway.kind, input.kind)) return refuse("operations.errors.not_supported");
    const amount = checkAmount(input.kind, input.amount, transaction.currency_code, availableAmount(transaction, input.kind));
    if (!amount.ok) return amount;
    const column: "refunded_amount" | "captured_amount" | "voided_amount" =
      input.kind === "refund" ? "refunded_amount" : input.kind === "capture" ? "captured_amount" : "voided_amount";
    await trx
      .updateTable("transactions")
      .set((eb) => ({ [column]: eb(column, "+", amount.minor) }))
      .where("id", "=", transaction.id)
      .execute();
    const created = nowIso();
    const operation = await trx
      .insertInto("transaction_operations")
      .values({
        merchant_id: input.merchantId,
        transaction_id: transaction.id,
        kind: input.kind,
        state: "pending",
        amount: amount.minor,
        currency_code: transaction.currency_code,
        gateway_code: gateway.code,
        gateway_reference: null,
        message: null,
        requested_by: input.actor.id,
        approval_request_id: input.requestId,
        created_at: created,
        completed_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const attempt = await trx
      .selectFrom("payment_attempts")
      .select(["gateway_reference", "track_id", "payment_id"])
      .where("id", "=", transaction.paid_attempt_id!)
      .executeTakeFirstOrThrow();
    return { ok: true as const, transaction, gateway, attempt, amount: amount.minor, operationId: operation.id, column };
  });
  if (!reserved.ok) return reserved;

  const { transaction, gateway, attempt, amount, operationId, column } = reserved;
  const adapter = adapterFor(gateway.kind);
  const config = toGatewayConfig(gateway, input.addresses);
  const refs = { gatewayReference: attempt.gateway_reference, trackId: attempt.track_id, paymentId: attempt.payment_id };
  let result: Awaited<ReturnType<typeof adapter.refund>>;
  try {
    result =
      input.kind === "refund"
        ? await adapter.refund(config, refs, amount)
        : input.kind === "capture"
          ? await adapter.capture(config, refs, amount)
          : await adapter.void(config, refs);
  } catch (error) {
    result = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }

  const amountParam = money(amount, transaction.currency_code);
  await writeTransaction(db, async (trx) => {
    const completed = nowIso();
    // The row lock comes first: the ledger row's foreign key takes a share lock on the transaction,
    // and two completions upgrading theirs to FOR UPDATE afterwards deadlock on Postgres.
    const current = await lockTransaction(trx, input.merchantId, transaction.id);
    const audit = {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      objectType: "transaction",
      objectId: transaction.id,
    };
    if (!result.ok) {
      // The gateway refused: the reservation is given back.
      await trx
        .updateTable("transactions")
        .set((eb) => ({ [column]: eb(column, "-", amount) }))
        .where("id", "=", transaction.id)
        .execute();
      await trx
        .updateTable("transaction_operations")
        .set({ state: "failed", message: result.message.slice(0, 500), completed_at: completed })
        .where("id", "=", operationId)
        .execute();
      await recordAudit(trx, { ...audit, action: `transaction_${input.kind}_failed`, params: { amount: amountParam, orderNo: transaction.order_no, message: result.message.slice(0, 200) } });
      return;
    }
    await trx
      .updateTable("transaction_operations")
      .set({ state: "succeeded", gateway_reference: result.reference ?? null, completed_at: completed })
      .where("id", "=", operationId)
      .execute();
    await trx
      .insertInto("ledger_entries")
      .values({
        merchant_id: input.merchantId,
        transaction_id: transaction.id,
        attempt_id: `operation-${operationId}`,
        kind: input.kind,
        amount,
        fee: 0,
        currency_code: transaction.currency_code,
        created_at: completed,
      })
      .execute();
    const key = { merchantId: input.merchantId, plugin: transaction.plugin, currency: transaction.currency_code, at: completed };
    const cause = { kind: input.kind, operationId };
    if (input.kind === "capture") {
      const moved = await transitionTransaction(trx, transaction.id, "paid", cause);
      await bumpTotals(trx, key, { received_count: 1, received_amount: amount });
      if (current && moved.ok) await recordPaidStatistics(trx, { ...current, deleted_at: null }, 1, current.captured_amount);
    } else if (input.kind === "void") {
      await transitionTransaction(trx, transaction.id, "voided", cause);
    } else {
      await bumpTotals(trx, key, { refunded_amount: amount });
      // Refunded in full only by refunds that went through: amounts still reserved by others in flight may yet come back.
      const done = await trx
        .selectFrom("transaction_operations")
        .select((eb) => eb.fn.sum<number>("amount").as("total"))
        .where("transaction_id", "=", transaction.id)
        .where("kind", "=", "refund")
        .where("state", "=", "succeeded")
        .executeTakeFirst();
      if (current && Number(done?.total ?? 0) >= current.captured_amount) {
        const moved = await transitionTransaction(trx, transaction.id, "refunded", cause);
        if (moved.ok && moved.from === "paid") await recordPaidStatistics(trx, { ...current, deleted_at: null }, -1, current.captured_amount);
      }
    }
    await recordAudit(trx, { ...audit, action: `transaction_${input.kind}`, params: { amount: amountParam, orderNo: transaction.order_no } });
  });
  if (!result.ok) return refuse("operations.errors.gateway", { params: { message: result.message } });
  return { ok: true, code: `operations.done.${input.kind}`, params: { amount: amountParam }, operationId };
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
  input: { merchantId: number; actor: Actor; transactionId: string; kind: OperationKind; amount?: string | null },
): Promise<OperationOutcome> {
  await expireOperationRequests(db, input.merchantId, input.transactionId);
  const outcome = await writeTransaction(db, async (trx): Promise<OperationOutcome> => {
    const transaction = await lockTransaction(trx, input.merchantId, input.transactionId);
    if (!transaction) return refuse("api.not_found");
    const gateway = transaction.gateway_code ? await findMerchantGateway(trx, input.merchantId, transaction.gateway_code) : undefined;
    if (!gateway || !gatewaySupports(gateway.kind, input.kind)) return refuse("operations.errors.not_supported");
    const amount = checkAmount(input.kind, input.amount, transaction.currency_code, availableAmount(transaction, input.kind));
    if (!amount.ok) return amount;
    if (await findPendingRequest(trx, input.merchantId, transaction.id)) return refuse("operations.errors.request_pending");
    const created = nowIso();
    const expires = new Date(Date.parse(created) + env().OPERATION_REQUEST_TTL_HOURS * 3600_000).toISOString();
    const request = await trx
      .insertInto("operation_requests")
      .values({
        merchant_id: input.merchantId,
        transaction_id: transaction.id,
        kind: input.kind,
        amount: amount.minor,
        currency_code: transaction.currency_code,
        gateway_code: gateway.code,
        state: "pending",
        maker_id: input.actor.id,
        maker_name: input.actor.username,
        checker_id: null,
        checker_name: null,
        note: null,
        result_message: null,
        created_at: created,
        expires_at: expires,
        decided_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const amountParam = money(amount.minor, transaction.currency_code);
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: "operation_requested",
      params: { kind: word(`operations.kind_in_sentence.${input.kind}`), amount: amountParam, orderNo: transaction.order_no },
      objectType: "transaction",
      objectId: transaction.id,
    });
    return { ok: true, code: "operations.requested", params: { amount: amountParam }, requestId: request.id };
  }).catch((error: unknown) => {
    // Two makers at once: the unique index keeps one pending request per transaction.
    if (/unique|duplicate/i.test(String(error))) return refuse("operations.errors.request_pending");
    throw error;
  });
  return outcome;
}

/**
 * A checker decides a pending request. Approval executes it exactly once: only the one update
 * that moves it from pending wins, whichever process gets there first.
 */
export async function decideOperationRequest(
  db: DB,
  input: { merchantId: number; actor: Actor; requestId: number; decision: "approve" | "reject" | "cancel"; addresses: PlatformAddresses },
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
    if (request.maker_id !== input.actor.id && !can(input.actor, "approve_operations")) return refuse("operations.errors.forbidden");
  } else {
    if (!can(input.actor, "approve_operations")) return refuse("operations.errors.forbidden");
    if (request.maker_id === input.actor.id) return refuse("operations.errors.own_request");
  }
  if (request.state !== "pending") return refuse("operations.errors.decided", { params: { state: word(`requests.states.${request.state}`) } });
  const state = input.decision === "approve" ? "approved" : input.decision === "reject" ? "rejected" : "canceled";
  const moved = await writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable("operation_requests")
      .set({ state, checker_id: input.actor.id, checker_name: input.actor.username, decided_at: nowIso() })
      .where("id", "=", request.id)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: `operation_request_${state}`,
      params: { kind: word(`operations.kind_in_sentence.${request.kind}`), id: request.id, maker: request.maker_name },
      objectType: "transaction",
      objectId: request.transaction_id,
    });
    return true;
  });
  if (!moved) return refuse("operations.errors.decided_meanwhile");
  if (state !== "approved") return { ok: true, code: `requests.done.${state}`, params: {} };
  // The maker's rights are what the operation runs under; the checker's approval is what lets it run.
  const outcome = await executeOperation(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    transactionId: request.transaction_id,
    kind: request.kind,
    amount: toDecimalString(request.amount, request.currency_code),
    addresses: input.addresses,
    requestId: request.id,
  });
  const result = outcome.ok ? { code: outcome.code, params: outcome.params } : { code: outcome.code, params: outcome.params ?? {} };
  await db
    .updateTable("operation_requests")
    .set({ result: JSON.stringify(result), result_message: texts().line(result.code, result.params, "en").slice(0, 500) })
    .where("id", "=", request.id)
    .execute();
  return outcome;
}

/**
 * The dialog's first step: what is available and whether the typed amount fits, without moving
 * money. Given the actor, it also says when their operation would become a request while one is
 * already waiting for this transaction, so a maker learns it before being asked 'Are you sure?'.
 */
export async function previewOperation(
  db: DB,
  input: { merchantId: number; transactionId: string; kind: OperationKind; amount?: string | null; actor?: PermissionHolder },
) {
  const transaction = await db
    .selectFrom("transactions")
    .select(["id", "order_no", "state", "currency_code", "paid_amount", "captured_amount", "refunded_amount", "voided_amount", "gateway_code", "paid_attempt_id"])
    .where("merchant_id", "=", input.merchantId)
    .where("id", "=", input.transactionId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!transaction) return undefined;
  const available = availableAmount(transaction, input.kind);
  const checked = input.amount === undefined ? null : checkAmount(input.kind, input.amount, transaction.currency_code, available);
  let blocked: Refusal | null = null;
  if (input.actor && (await needsApproval(db, input.merchantId, input.actor))) {
    await expireOperationRequests(db, input.merchantId, transaction.id);
    if (await findPendingRequest(db, input.merchantId, transaction.id)) blocked = refuse("operations.errors.request_pending");
  }
  return {
    orderNo: transaction.order_no,
    currency: transaction.currency_code,
    /** Decimal places the amount may have: the currency's, or 3 with no currency (spec §5). */
    decimals: transaction.currency_code ? exponentOf(transaction.currency_code) : 3,
    blocked,
    available: toDecimalString(available, transaction.currency_code),
    availableMinor: available,
    checked: checked && (checked.ok ? { ok: true as const, amount: toDecimalString(checked.minor, transaction.currency_code) } : checked),
  };
}
