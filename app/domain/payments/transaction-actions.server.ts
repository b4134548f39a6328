import type { DB } from "~/db/database.server";
import type { OperationKind, TransactionState } from "~/db/schema";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { runAction as runMessageAction } from "~/domain/payments/actions.server";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { PAYABLE_STATES } from "~/domain/payments/pay-page.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { writeTransaction } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { translator } from "~/lib/i18n.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import { availableAmount, gatewaySupports, requestOperation, type Actor } from "./operations.server";
import { DELETABLE_STATES } from "./states";
import { recordDeletedStatistics } from "~/domain/payments/statistics-rollup.server";
import { bumpTotals } from "~/domain/payments/running-totals.server";

export const ROW_ACTIONS = ["capture", "refund", "void", "email", "sms", "cancel", "delete", "restore"] as const;
export type RowActionName = (typeof ROW_ACTIONS)[number];
/** Actions that take several rows at once from the list's Actions menu. */
export const BULK_ACTIONS: readonly RowActionName[] = ["email", "sms", "cancel", "delete", "restore"];

export type ActionableRow = {
  id: string;
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

export type ActionContext = { gatewayKinds: Map<string, "knet" | "card" | "cod"> };

export function isRowAction(value: string): value is RowActionName {
  return (ROW_ACTIONS as readonly string[]).includes(value);
}

/** The actions this user may take on this row now (dashboard spec §3 Action), decided on the server. */
export function rowActions(row: ActionableRow, user: PermissionHolder, context: ActionContext): RowActionName[] {
  if (row.deleted_at) return can(user, "delete_paymenttransaction") ? ["restore"] : [];
  const actions: RowActionName[] = [];
  const kind = row.gateway_code ? context.gatewayKinds.get(row.gateway_code) : undefined;
  for (const operation of ["capture", "refund", "void"] as const) {
    const permission = operation === "refund" ? "refund_paymenttransaction" : operation === "capture" ? "capture_paymenttransaction" : "void_paymenttransaction";
    if (kind && gatewaySupports(kind, operation) && can(user, permission) && availableAmount(row, operation) > 0) actions.push(operation);
  }
  if (PAYABLE_STATES.includes(row.state)) {
    if (can(user, "change_paymenttransaction") || can(user, "add_paymenttransaction")) {
      if (row.customer_email) actions.push("email");
      if (row.customer_phone) actions.push("sms");
    }
    if (can(user, "change_paymenttransaction")) actions.push("cancel");
  }
  if (DELETABLE_STATES.includes(row.state) && can(user, "delete_paymenttransaction")) actions.push("delete");
  return actions;
}

const ICONS: Record<RowActionName, string> = {
  capture: "cash",
  refund: "receipt-refund",
  void: "ban",
  email: "mail",
  sms: "message",
  cancel: "x",
  delete: "trash",
  restore: "restore",
};

/** An action as the API and the page describe it: value, url, display_name, icon, available_amount. */
export function describeRowAction(action: RowActionName, row: ActionableRow, lang: Language, url: string) {
  const t = translator(lang);
  const amount = action === "refund" || action === "capture" || action === "void" ? availableAmount(row, action) : null;
  return {
    value: action,
    url,
    display_name: t(`actions.${action}`),
    icon: ICONS[action],
    available_amount: amount === null ? null : toDecimalString(amount, row.currency_code),
    ...(action === "email" || action === "sms"
      ? {
          data: {
            message_en: translator("en")(`actions.confirm.${action}`),
            message_ar: translator("ar")(`actions.confirm.${action}`),
            phone: action === "sms" ? row.customer_phone : undefined,
          },
        }
      : {}),
  };
}

export type ActionOutcome =
  | { ok: true; status: 200 | 201; message: string }
  | { ok: false; status: 400 | 403 | 404 | 409 | 502; message: string; field?: "amount" };

async function moveDeleted(db: DB, merchantId: number, id: string, deleted: boolean, lang: Language): Promise<ActionOutcome> {
  const t = translator(lang);
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("transactions")
      .select(["id", "plugin", "currency_code", "amount", "created_at", "state", "deleted_at"])
      .where("merchant_id", "=", merchantId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return { ok: false, status: 404, message: t("api.not_found") };
    if (deleted && (row.deleted_at || !DELETABLE_STATES.includes(row.state))) return { ok: false, status: 400, message: t("actions.not_available") };
    if (!deleted && !row.deleted_at) return { ok: false, status: 400, message: t("actions.not_available") };
    await trx.updateTable("transactions").set({ deleted_at: deleted ? nowIso() : null }).where("id", "=", id).execute();
    const sign = deleted ? 1 : -1;
    await bumpTotals(trx, { merchantId, plugin: row.plugin, currency: row.currency_code, at: row.created_at }, { deleted_count: sign, deleted_amount: sign * row.amount });
    await recordDeletedStatistics(trx, merchantId, id, deleted ? -1 : 1);
    return { ok: true, status: 200, message: t(`actions.done.${deleted ? "delete" : "restore"}`) };
  });
}

/** Runs one action on one row of the user's merchant, if it is available to them now. */
export async function runRowAction(
  db: DB,
  input: {
    merchantId: number;
    user: Actor;
    transactionId: string;
    action: string;
    amount?: string | null;
    lang: Language;
    baseUrl: string;
    addresses: PlatformAddresses;
    /** When given, a row of another section is not found: a section's list acts on its own rows only. */
    plugin?: string;
  },
): Promise<ActionOutcome> {
  const t = translator(input.lang);
  const row = await loadActionableRow(db, input.merchantId, input.transactionId, input.plugin);
  if (!row) return { ok: false, status: 404, message: t("api.not_found") };
  const gatewayKinds = await gatewayKindsOf(db, input.merchantId);
  if (!isRowAction(input.action) || !rowActions(row, input.user, { gatewayKinds }).includes(input.action)) {
    const operation = input.action === "refund" || input.action === "capture" || input.action === "void";
    if (operation && !can(input.user, `${input.action}_paymenttransaction` as "refund_paymenttransaction")) return { ok: false, status: 403, message: t("operations.errors.forbidden") };
    return { ok: false, status: operation ? 400 : 403, message: t(operation ? "operations.errors.not_available" : "actions.not_available") };
  }
  const action = input.action;
  let outcome: ActionOutcome;
  if (action === "refund" || action === "capture" || action === "void") {
    outcome = await requestOperation(db, {
      merchantId: input.merchantId,
      actor: input.user,
      transactionId: row.id,
      kind: action as OperationKind,
      amount: input.amount,
      lang: input.lang,
      addresses: input.addresses,
    });
    return outcome;
  }
  if (action === "delete" || action === "restore") {
    outcome = await moveDeleted(db, input.merchantId, row.id, action === "delete", input.lang);
    if (outcome.ok) {
      await recordAudit(db, {
        merchantId: input.merchantId,
        actor: { id: input.user.id, username: input.user.username },
        action: `transaction_${action}`,
        description: `${input.user.username}: ${action} transaction ${row.id}`,
        objectType: "transaction",
        objectId: row.id,
      });
    }
    return outcome;
  }
  const result = await runMessageAction(db, {
    merchantId: input.merchantId,
    user: input.user,
    transactionId: row.id,
    action,
    baseUrl: input.baseUrl,
    lang: input.lang,
  });
  return result.ok ? { ok: true, status: 200, message: result.message } : result;
}

/** One action on many rows: 200 when all succeed, 207 when some do ('Applied partially'), 400 when none. */
export async function runBulkAction(
  db: DB,
  input: Omit<Parameters<typeof runRowAction>[1], "transactionId" | "amount"> & { ids: string[] },
) {
  const t = translator(input.lang);
  const ids = [...new Set(input.ids)].slice(0, 500);
  if (!BULK_ACTIONS.includes(input.action as RowActionName) || ids.length === 0) {
    return { status: 400 as const, message: t("actions.bulk_none_selected"), results: [] };
  }
  const results: { id: string; ok: boolean; message: string }[] = [];
  for (const id of ids) {
    const outcome = await runRowAction(db, { ...input, transactionId: id });
    results.push({ id, ok: outcome.ok, message: outcome.message });
  }
  const succeeded = results.filter((result) => result.ok).length;
  const status = succeeded === results.length ? 200 : succeeded === 0 ? 400 : 207;
  const message = status === 200 ? t("actions.applied") : status === 207 ? t("actions.applied_partially") : (results[0]?.message ?? t("actions.not_available"));
  return { status, message, results } as const;
}

export async function loadActionableRow(db: DB, merchantId: number, id: string, plugin?: string): Promise<ActionableRow | undefined> {
  let query = db
    .selectFrom("transactions")
    .select([
      "id",
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

export async function gatewayKindsOf(db: DB, merchantId: number) {
  const rows = await db.selectFrom("gateways").select(["code", "kind"]).where("merchant_id", "=", merchantId).execute();
  return new Map(rows.map((row) => [row.code, row.kind]));
}
