import type { DB } from "~/db/database.server";
import type { TransactionState } from "~/db/schema";
import { can, type Actor, type PermissionHolder } from "~/domain/identity/permissions";
import { refuse, type Refusal, type TextParams } from "~/lib/outcome";
import type { Language } from "~/lib/i18n";
import type { PlatformAddresses } from "./attempts.server";
import { gatewaySupports } from "./gateways/registry";
import { cancelTransaction, sendPayLink, setDeleted } from "./lifecycle.server";
import { availableAmount, OPERATION_PERMISSIONS, requestOperation, resumeOperation } from "./operations.server";
import { DELETABLE_STATES, PAYABLE_STATES } from "./states";

export const ROW_ACTIONS = ["capture", "refund", "void", "email", "sms", "cancel", "delete", "restore"] as const;
export type RowActionName = (typeof ROW_ACTIONS)[number];
/** Actions that take several rows at once from the list's Actions menu. */
export const BULK_ACTIONS: readonly RowActionName[] = ["email", "sms", "cancel", "delete", "restore"];
export const OPERATION_ACTIONS = ["capture", "refund", "void"] as const;

export type ActionableRow = {
  id: string;
  /** The section the row belongs to: it may refuse some actions (see connectActionVetoes). */
  plugin: string;
  state: TransactionState;
  customer_email: string | null;
  customer_phone: string | null;
  paid_amount: number;
  captured_amount: number;
  refunded_amount: number;
  voided_amount: number;
  currency_code: string;
  gateway_code: string | null;
  paid_attempt_id: string | null;
  deleted_at: string | null;
};

/** What decides which actions a merchant's rows offer besides the rows themselves and the user's permissions. */
export type ActionContext = {
  /** The merchant's gateways' kinds by code: which operations a payment allows. */
  gatewayKinds: ReadonlyMap<string, string>;
  /** Actions a section refuses for this merchant, by section (sending a link again when its notifications are off). */
  refused: ReadonlyMap<string, ReadonlySet<string>>;
};

/** A section's refusals for a merchant: the row actions its settings turn off. */
export type ActionVeto = (db: DB, merchantId: number) => Promise<readonly RowActionName[]>;
let vetoes: (() => Iterable<readonly [string, ActionVeto]>) | undefined;

/** Connects the sections' refusals (the platform does it once when it starts, see app/boot/wiring). */
export function connectActionVetoes(lookup: () => Iterable<readonly [string, ActionVeto]>) {
  vetoes = lookup;
}

/** The context rowActions needs for the merchant's rows: every page, API and action reads it here. */
export async function actionContextOf(db: DB, merchantId: number): Promise<ActionContext> {
  // Unconnected, a section's refusal would silently not apply: refuse to guess, as transitions do.
  if (!vetoes)
    throw new Error("actionContextOf: the sections' refusals are not connected (start the platform through app/boot)");
  const [gatewayKinds, refusals] = await Promise.all([
    gatewayKindsOf(db, merchantId),
    Promise.all(
      [...vetoes()].map(async ([plugin, veto]) => [plugin, new Set<string>(await veto(db, merchantId))] as const),
    ),
  ]);
  return { gatewayKinds, refused: new Map(refusals.filter(([, refused]) => refused.size > 0)) };
}

/** The longest reason a refund, capture or void may carry. */
export const REASON_MAX_LENGTH = 500;

/** A reason as typed: trimmed, without control characters, at most REASON_MAX_LENGTH; null when blank. */
export function reasonOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .trim()
    .slice(0, REASON_MAX_LENGTH);
  return text === "" ? null : text;
}

export function isRowAction(value: string): value is RowActionName {
  return (ROW_ACTIONS as readonly string[]).includes(value);
}

function isOperation(action: string): action is (typeof OPERATION_ACTIONS)[number] {
  return (OPERATION_ACTIONS as readonly string[]).includes(action);
}

/** The actions this user may take on this row now (dashboard spec §3 Action), decided on the server. */
export function rowActions(row: ActionableRow, user: PermissionHolder, context: ActionContext): RowActionName[] {
  if (row.deleted_at) return can(user, "delete_paymenttransaction") ? ["restore"] : [];
  const actions: RowActionName[] = [];
  const kind = row.gateway_code ? context.gatewayKinds.get(row.gateway_code) : undefined;
  for (const operation of OPERATION_ACTIONS) {
    if (
      kind &&
      gatewaySupports(kind, operation) &&
      can(user, OPERATION_PERMISSIONS[operation]) &&
      availableAmount(row, operation) > 0
    )
      actions.push(operation);
  }
  if (PAYABLE_STATES.includes(row.state)) {
    if (can(user, "change_paymenttransaction") || can(user, "add_paymenttransaction")) {
      const refused = context.refused.get(row.plugin);
      if (row.customer_email && !refused?.has("email")) actions.push("email");
      if (row.customer_phone && !refused?.has("sms")) actions.push("sms");
    }
    if (can(user, "change_paymenttransaction")) actions.push("cancel");
  }
  if (DELETABLE_STATES.includes(row.state) && can(user, "delete_paymenttransaction")) actions.push("delete");
  return actions;
}

/**
 * What an action did: its message's code and parameters; `requestId` when a refund, capture or
 * void became a request waiting for a checker.
 */
export type ActionOutcome =
  { ok: true; code: string; params?: TextParams; requestId?: number; checking?: true } | Refusal;

/** Runs one action on one row of the user's merchant, if it is available to them now. */
export async function runRowAction(
  db: DB,
  input: {
    merchantId: number;
    user: Actor;
    transactionId: string;
    action: string;
    amount?: string | null;
    /** The language the customer is written to in (a resent link). */
    lang: Language;
    baseUrl: string;
    addresses: PlatformAddresses;
    /** When given, a row of another section is not found: a section's list acts on its own rows only. */
    plugin?: string;
    /** A refund or void of this duplicate payment of the transaction, not of its own payment. */
    attemptId?: string | null;
    /** The merchant's action context when the caller has it already (a bulk action reads it once). */
    context?: ActionContext;
    /** A refund, capture or void's reference from the caller's Idempotency-Key (see resumeOperation). */
    operationReference?: string | null;
    /**
     * Why the user refunds, captures or voids (see reasonOf): written to the audit log with the
     * operation, and kept on the request a checker decides when it waits for approval.
     */
    reason?: string | null;
  },
): Promise<ActionOutcome> {
  const row = await loadActionableRow(db, input.merchantId, input.transactionId, input.plugin);
  if (!row) return refuse("api.not_found");
  const outcome = await runLoadedRowAction(db, row, input);
  if ("resumed" in outcome) {
    const { resumed: _resumed, ...rest } = outcome;
    return rest;
  }
  return outcome;
}

async function runLoadedRowAction(
  db: DB,
  row: ActionableRow & { order_no: number },
  input: Parameters<typeof runRowAction>[1],
): Promise<ActionOutcome | (ActionOutcome & { resumed: true })> {
  if (input.operationReference && isOperation(input.action) && can(input.user, OPERATION_PERMISSIONS[input.action])) {
    // A retry of a request that died after it reserved: the operation it started, not a second one.
    const resumed = await resumeOperation(db, {
      merchantId: input.merchantId,
      transactionId: row.id,
      kind: input.action,
      amount: input.amount,
      attemptId: input.attemptId,
      reference: input.operationReference,
      addresses: input.addresses,
    });
    if (resumed) return { ...resumed, resumed: true as const };
  }
  const reference = input.operationReference ?? null;
  const reason = reasonOf(input.reason);
  if (input.attemptId && input.attemptId !== row.paid_attempt_id) {
    // A duplicate payment has its own money to give back, whatever the row's own payment allows.
    if (row.deleted_at || (input.action !== "refund" && input.action !== "void"))
      return refuse("actions.not_available");
    if (!can(input.user, OPERATION_PERMISSIONS[input.action])) return refuse("operations.errors.forbidden");
    return requestOperation(db, {
      merchantId: input.merchantId,
      actor: input.user,
      transactionId: row.id,
      kind: input.action,
      amount: input.amount,
      attemptId: input.attemptId,
      addresses: input.addresses,
      reference,
      reason,
    });
  }
  if (
    !isRowAction(input.action) ||
    !rowActions(row, input.user, input.context ?? (await actionContextOf(db, input.merchantId))).includes(input.action)
  ) {
    if (!isOperation(input.action)) return refuse("actions.not_available");
    if (!can(input.user, OPERATION_PERMISSIONS[input.action])) return refuse("operations.errors.forbidden");
    return refuse("operations.errors.not_available");
  }
  const action = input.action;
  const target = { merchantId: input.merchantId, actor: input.user, transactionId: row.id };
  if (isOperation(action))
    return requestOperation(db, {
      ...target,
      kind: action,
      amount: input.amount,
      addresses: input.addresses,
      reference,
      reason,
    });
  if (action === "delete" || action === "restore") return setDeleted(db, { ...target, deleted: action === "delete" });
  if (action === "cancel") return cancelTransaction(db, target);
  return sendPayLink(db, { ...target, channel: action, baseUrl: input.baseUrl, lang: input.lang });
}

export type BulkOutcome = {
  outcome: "all" | "some" | "none";
  code: string;
  results: { id: string; outcome: ActionOutcome }[];
};

/** One action on many rows: all succeed ('Applied successfully'), some do ('Applied partially') or none. */
export async function runBulkAction(
  db: DB,
  input: Omit<Parameters<typeof runRowAction>[1], "transactionId" | "amount"> & { ids: string[] },
): Promise<BulkOutcome> {
  const ids = [...new Set(input.ids)].slice(0, 500);
  if (!BULK_ACTIONS.includes(input.action as RowActionName) || ids.length === 0) {
    return { outcome: "none", code: "actions.bulk_none_selected", results: [] };
  }
  const results: BulkOutcome["results"] = [];
  const context = await actionContextOf(db, input.merchantId);
  for (const id of ids) results.push({ id, outcome: await runRowAction(db, { ...input, transactionId: id, context }) });
  const succeeded = results.filter((result) => result.outcome.ok).length;
  if (succeeded === results.length) return { outcome: "all", code: "actions.applied", results };
  if (succeeded > 0) return { outcome: "some", code: "actions.applied_partially", results };
  return { outcome: "none", code: results[0]?.outcome.code ?? "actions.not_available", results };
}

export async function loadActionableRow(
  db: DB,
  merchantId: number,
  id: string,
  plugin?: string,
): Promise<(ActionableRow & { order_no: number }) | undefined> {
  let query = db
    .selectFrom("transactions")
    .select([
      "id",
      "plugin",
      "order_no",
      "state",
      "customer_email",
      "customer_phone",
      "paid_amount",
      "captured_amount",
      "refunded_amount",
      "voided_amount",
      "currency_code",
      "gateway_code",
      "paid_attempt_id",
      "deleted_at",
    ])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id);
  if (plugin) query = query.where("plugin", "=", plugin);
  return query.executeTakeFirst();
}

async function gatewayKindsOf(db: DB, merchantId: number) {
  const rows = await db.selectFrom("gateways").select(["code", "kind"]).where("merchant_id", "=", merchantId).execute();
  return new Map(rows.map((row) => [row.code, row.kind]));
}
