import QRCode from "qrcode";
import type { DB } from "~/db/database.server";
import type { PermissionHolder } from "~/domain/identity/permissions";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { translator } from "~/lib/i18n.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import { BUILTIN_FIELDS, displayValue, plainValue } from "./fields.server";
import type { ChildOperation, TransactionRow } from "./list.server";
import { describeRowAction, rowActions } from "~/domain/payments/transaction-actions.server";

/** What serializing rows needs beyond the rows: the merchant's gateways, who asks, in which language. */
export type SerializeContext = {
  lang: Language;
  user: PermissionHolder;
  gatewayNames: Map<string, { name_en: string; name_ar: string }>;
  gatewayKinds: Map<string, "knet" | "card" | "cod">;
  /** The public pay URL of a transaction (checkout_url, the details' QR code). */
  payUrl: (id: string) => string;
  /** Where an action of a row is posted. */
  actionUrl: (row: TransactionRow, action: string) => string;
};

export async function loadSerializeContext(
  db: DB,
  input: Omit<SerializeContext, "gatewayNames" | "gatewayKinds"> & { merchantId: number },
): Promise<SerializeContext> {
  const gateways = await listMerchantGateways(db, input.merchantId);
  return {
    lang: input.lang,
    user: input.user,
    payUrl: input.payUrl,
    actionUrl: input.actionUrl,
    gatewayNames: new Map(gateways.map((gateway) => [gateway.code, gateway])),
    gatewayKinds: new Map(gateways.map((gateway) => [gateway.code, gateway.kind])),
  };
}

/** A refund, capture or void of a transaction (the `txns` of dashboard spec §3). */
export function serializeOperation(operation: ChildOperation) {
  return {
    id: operation.id,
    type: operation.kind,
    kind: operation.kind,
    state: operation.state,
    amount: toDecimalString(operation.amount, operation.currency_code),
    currency_code: operation.currency_code,
    gateway_code: operation.gateway_code,
    reference: operation.gateway_reference,
    message: operation.message,
    initiator: operation.requested_by ? { username: operation.requested_by } : null,
    created: operation.created_at,
    completed: operation.completed_at,
  };
}

function parseObject(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A transaction in the API's words (dashboard spec §3 Transaction): amounts as decimal strings of
 * the currency, times as UTC ISO instants, the actions this user may take now and the child
 * operations. `operations` may hold other rows' operations; only this row's are kept.
 */
export function serializeTransaction(row: TransactionRow, context: SerializeContext, operations: readonly ChildOperation[]) {
  const money = (minor: number) => toDecimalString(minor, row.currency_code);
  const gateway = row.gateway_code ? context.gatewayNames.get(row.gateway_code) : undefined;
  const actions = rowActions(row, context.user, { gatewayKinds: context.gatewayKinds });
  const location = row.delivery_lat !== null && row.delivery_lng !== null ? { lat: row.delivery_lat, lng: row.delivery_lng } : null;
  return {
    id: row.id,
    order_no: row.order_no,
    type: row.plugin,
    state: row.state,
    customer_email: row.customer_email,
    customer_phone: row.customer_phone,
    customer_first_name: row.customer_first_name,
    customer_last_name: row.customer_last_name,
    description: row.description,
    remarks: row.remarks,
    gateway_code: row.gateway_code,
    gateway_name: gateway ? (context.lang === "ar" ? gateway.name_ar : gateway.name_en) : null,
    pg_codes: row.pg_codes ? row.pg_codes.split(",") : [],
    amount: money(row.amount),
    original_amount: money(row.amount),
    paid_amount: money(row.paid_amount),
    fee: money(row.fee),
    paid_attempt_fee: row.paid_attempt_fee === null ? null : money(row.paid_attempt_fee),
    captured_amount: money(row.captured_amount),
    refunded_amount: money(row.refunded_amount),
    voided_amount: money(row.voided_amount),
    currency_code: row.currency_code,
    has_editable_amount: Boolean(row.editable_amount),
    created: row.created_at,
    state_changed_at: row.state_changed_at,
    expiration_time: row.expiration_time,
    deleted_at: row.deleted_at,
    unit_id: row.unit_id,
    unit: (context.lang === "ar" ? row.unit_ar : row.unit_en) ?? null,
    initiator: row.initiator ? { username: row.initiator } : null,
    delivery_location: location,
    delivery_address: parseObject(row.delivery_address),
    extra: parseObject(row.extra) ?? {},
    product_type: row.product_type,
    bulk: row.bulk_id,
    seen: Boolean(row.seen),
    email_seen: Boolean(row.email_seen),
    disclosed_to_merchant: Boolean(row.disclosed_to_merchant),
    attachment: row.attachment_name,
    checkout_url: context.payUrl(row.id),
    actions: actions.map((action) => describeRowAction(action, row, context.lang, context.actionUrl(row, action))),
    txns: operations.filter((operation) => operation.transaction_id === row.id).map(serializeOperation),
  };
}

/**
 * One transaction as the details view reads it: everything of the list row, plus `details`
 * (label and value rows in the asked language, never empty) and `qr_code` (the pay URL as an
 * SVG data URL).
 */
export async function serializeTransactionDetails(row: TransactionRow, context: SerializeContext, operations: readonly ChildOperation[]) {
  const t = translator(context.lang);
  const details: { name: string; label: string; value: string }[] = [];
  for (const name of BUILTIN_FIELDS) {
    if (!plainValue(row, name)) continue;
    details.push({ name, label: t(`fields.${name}`), value: displayValue(row, name, context.lang, context.gatewayNames) });
  }
  if (row.remarks) details.push({ name: "remarks", label: t("payment_request.remarks"), value: row.remarks });
  if (row.attachment_name) details.push({ name: "attachment", label: t("payment_request.attachment"), value: row.attachment_name });
  const svg = await QRCode.toString(context.payUrl(row.id), { type: "svg", margin: 1, width: 220, errorCorrectionLevel: "M" });
  return {
    ...serializeTransaction(row, context, operations),
    details,
    qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}
