import QRCode from "qrcode";
import type { DB } from "~/db/database.server";
import type { PermissionHolder } from "~/domain/identity/permissions";
import { decimalBoundsOf } from "~/domain/payments/amount-bounds.server";
import { labelledCheckoutValues } from "~/domain/payments/checkout-fields.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { availableAmount } from "~/domain/payments/operations.server";
import {
  actionContextOf,
  rowActions,
  type ActionableRow,
  type ActionContext,
  type RowActionName,
} from "~/domain/payments/transaction-actions.server";
import { BUILTIN_FIELDS, plainValue, type FieldName, type TableField } from "~/domain/transactions/fields.server";
import type { ChildOperation, TransactionRow } from "~/domain/transactions/list.server";
import { displayStateOf } from "~/domain/transactions/display-state";
import { formatDateTime, formatListDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { i18nFor, translator } from "~/lib/i18n.server";
import { formatAmount, toDecimalString } from "~/lib/money";
import type { SectionServer } from "~/sections/contract";

/**
 * Transactions as people and API clients read them: cells, columns, actions, the API's shape, in
 * the reader's language. What a section adds (its columns, details rows and fields) comes in as
 * its `extensions`.
 */

export type TransactionExtensions = NonNullable<SectionServer["transactions"]>;
/** The extensions of a section by key (the adapters find them in app/sections/registry.server.ts). */
export type ExtensionsOf = (sectionKey: string) => TransactionExtensions | undefined;

/** What serializing rows needs beyond the rows: the merchant's gateways, who asks, in which language. */
export type SerializeContext = {
  lang: Language;
  user: PermissionHolder;
  gatewayNames: Map<string, { name_en: string; name_ar: string }>;
  /** What decides the rows' actions (the gateways' kinds, what the sections refuse). */
  actionContext: ActionContext;
  /** The public pay URL of a transaction (checkout_url, the details' QR code). */
  payUrl: (id: string) => string;
  /** Where an action of a row is posted. */
  actionUrl: (row: TransactionRow, action: string) => string;
  extensionsOf: ExtensionsOf;
};

export async function loadSerializeContext(
  db: DB,
  input: Omit<SerializeContext, "gatewayNames" | "actionContext"> & { merchantId: number },
): Promise<SerializeContext> {
  const [gateways, actionContext] = await Promise.all([
    listMerchantGateways(db, input.merchantId),
    actionContextOf(db, input.merchantId),
  ]);
  return {
    lang: input.lang,
    user: input.user,
    payUrl: input.payUrl,
    actionUrl: input.actionUrl,
    extensionsOf: input.extensionsOf,
    gatewayNames: new Map(gateways.map((gateway) => [gateway.code, gateway])),
    actionContext,
  };
}

/** An operation's message: the platform's own notes in the reader's language, a gateway's words as the gateway wrote them. */
export function operationMessage(message: string | null, lang: Language) {
  return message?.startsWith("operations.notes.") ? translator(lang)(message) : message;
}

/** A refund, capture or void of a transaction (the `txns` of dashboard spec §3). */
export function serializeOperation(operation: ChildOperation, lang: Language) {
  return {
    id: operation.id,
    type: operation.kind,
    kind: operation.kind,
    state: operation.state,
    amount: toDecimalString(operation.amount, operation.currency_code),
    currency_code: operation.currency_code,
    gateway_code: operation.gateway_code,
    reference: operation.gateway_reference,
    message: operationMessage(operation.message, lang),
    initiator: operation.requested_by ? { username: operation.requested_by } : null,
    created: operation.created_at,
    completed: operation.completed_at,
    attempt_id: operation.attempt_id,
  };
}

/** A captured payment of a transaction besides the one that paid it: what it still has to give back, and how (`refund` or `void` with its attempt_id). */
export function serializeDuplicatePayment(duplicate: {
  id: string;
  total: number;
  currency_code: string;
  gateway_code: string;
  completed_at: string | null;
  kind: string;
  available: number;
  payment_id: string | null;
  track_id: string;
}) {
  return {
    attempt_id: duplicate.id,
    amount: toDecimalString(duplicate.total, duplicate.currency_code),
    refundable_amount: toDecimalString(duplicate.available, duplicate.currency_code),
    currency_code: duplicate.currency_code,
    gateway_code: duplicate.gateway_code,
    action: duplicate.kind,
    payment_id: duplicate.payment_id,
    track_id: duplicate.track_id,
    paid_at: duplicate.completed_at,
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
export function serializeTransaction(
  row: TransactionRow,
  context: SerializeContext,
  operations: readonly ChildOperation[],
) {
  const money = (minor: number) => toDecimalString(minor, row.currency_code);
  const gateway = row.gateway_code ? context.gatewayNames.get(row.gateway_code) : undefined;
  const actions = rowActions(row, context.user, context.actionContext);
  const location =
    row.delivery_lat !== null && row.delivery_lng !== null ? { lat: row.delivery_lat, lng: row.delivery_lng } : null;
  return {
    id: row.id,
    order_no: row.order_no,
    type: row.plugin,
    state: row.state,
    /** The state people read: `partially_refunded` for a paid transaction some of whose money was given back, else `state`. */
    display_state: displayStateOf(row),
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
    ...decimalBoundsOf(row),
    created: row.created_at,
    state_changed_at: row.state_changed_at,
    expiration_time: row.expiration_time,
    deleted_at: row.deleted_at,
    /** Paid after it was canceled or deleted (`canceled`, `deleted`), else null. */
    paid_late: row.paid_late,
    unit_id: row.unit_id,
    unit: (context.lang === "ar" ? row.unit_ar : row.unit_en) ?? null,
    initiator: row.initiator ? { username: row.initiator } : null,
    delivery_location: location,
    extra: parseObject(row.extra) ?? {},
    product_type: row.product_type,
    bulk: row.bulk_id,
    seen: Boolean(row.seen),
    email_seen: Boolean(row.email_seen),
    disclosed_to_merchant: Boolean(row.disclosed_to_merchant),
    attachment: row.attachment_name,
    checkout_url: context.payUrl(row.id),
    actions: actions.map((action) => describeRowAction(action, row, context.lang, context.actionUrl(row, action))),
    txns: operations
      .filter((operation) => operation.transaction_id === row.id)
      .map((operation) => serializeOperation(operation, context.lang)),
    ...context.extensionsOf(row.plugin)?.serialize?.(row),
  };
}

/**
 * The transaction's QR code as an SVG document, holding what its section chooses (the pay link
 * unless the section says otherwise); null when the section shows none.
 */
export async function qrCodeSvg(
  db: DB,
  row: TransactionRow,
  payUrl: string,
  extensions: TransactionExtensions | undefined,
): Promise<string | null> {
  const content = extensions?.qrContent ? await extensions.qrContent(db, row, payUrl) : payUrl;
  return content === null
    ? null
    : QRCode.toString(content, { type: "svg", margin: 1, width: 220, errorCorrectionLevel: "M" });
}

/**
 * One transaction as the details view reads it: everything of the list row, plus `details`
 * (label and value rows in the asked language, never empty) and `qr_code` (its QR code, see
 * qrCodeSvg, as an SVG data URL, or null).
 */
export async function serializeTransactionDetails(
  db: DB,
  row: TransactionRow,
  context: SerializeContext,
  operations: readonly ChildOperation[],
) {
  const t = translator(context.lang);
  const details: { name: string; label: string; value: string }[] = [];
  for (const name of BUILTIN_FIELDS) {
    if (!plainValue(row, name)) continue;
    details.push({
      name,
      label: t(`fields.${name}`),
      value: displayValue(row, name, context.lang, context.gatewayNames),
    });
  }
  if (row.remarks) details.push({ name: "remarks", label: t("payment_request.remarks"), value: row.remarks });
  if (row.attachment_name)
    details.push({ name: "attachment", label: t("payment_request.attachment"), value: row.attachment_name });
  details.push(...(context.extensionsOf(row.plugin)?.details?.(row, context.lang) ?? []));
  for (const answer of await labelledCheckoutValues(db, row))
    details.push({ name: answer.name, label: answer.label[context.lang], value: answer.value });
  const svg = await qrCodeSvg(db, row, context.payUrl(row.id), context.extensionsOf(row.plugin));
  return {
    ...serializeTransaction(row, context, operations),
    details,
    qr_code: svg === null ? null : `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/** A cell as people read it, in the page's language; `short` times for a list's narrow columns. */
export function displayValue(
  row: TransactionRow,
  name: FieldName,
  lang: Language,
  gatewayNames: Map<string, { name_en: string; name_ar: string }>,
  options: { short?: boolean } = {},
): string {
  const t = translator(lang);
  const money = (minor: number) => formatAmount(minor, row.currency_code, lang);
  const time = options.short ? formatListDateTime : formatDateTime;
  switch (name) {
    case "order_no":
      return `#${row.order_no}`;
    case "created":
      return time(row.created_at, lang);
    case "state_changed_at":
      return time(row.state_changed_at, lang);
    case "expiration_time":
      return row.expiration_time ? time(row.expiration_time, lang) : "";
    case "amount":
      return money(row.amount);
    case "paid_amount":
      return money(row.paid_amount);
    case "fee":
      return money(row.fee);
    case "refunded_amount":
      return money(row.refunded_amount);
    case "state":
      return t(`states.${displayStateOf(row)}`);
    case "gateway_name": {
      const gateway = row.gateway_code ? gatewayNames.get(row.gateway_code) : undefined;
      return gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : (row.gateway_code ?? "");
    }
    case "unit":
      return (lang === "ar" ? row.unit_ar : row.unit_en) ?? "";
    default:
      return plainValue(row, name);
  }
}

/** The platform's own wording of a column, in both languages; a section's column names its translation key. */
export function defaultFieldLabels(name: string, sectionLabel?: string) {
  const key = sectionLabel ?? `fields.${name}`;
  return { label_en: translator("en")(key), label_ar: translator("ar")(key) };
}

/** Columns with their labels filled in: the merchant's, else the platform's (the API's configured table field). */
export function presentTableFields(fields: readonly TableField[], extensions?: TransactionExtensions) {
  return fields.map((field) => {
    const defaults = defaultFieldLabels(
      field.name,
      extensions?.fields?.find((candidate) => candidate.name === field.name)?.label,
    );
    return {
      name: field.name,
      verbose_name: defaults.label_en,
      label_en: field.label_en || defaults.label_en,
      label_ar: field.label_ar || defaults.label_ar,
      is_active: field.is_active,
      order: field.order,
    };
  });
}

/** A list cell in the reader's language: a built-in column (times short), or one the row's section adds. */
export function cellValue(
  row: TransactionRow,
  name: string,
  lang: Language,
  gatewayNames: Map<string, { name_en: string; name_ar: string }>,
  extensions?: TransactionExtensions,
) {
  const own = extensions?.fields?.find((field) => field.name === name);
  if (own) return own.display(row, lang);
  return displayValue(row, name as FieldName, lang, gatewayNames, { short: true });
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

/** A transaction state's word in the reader's language (a display state too: `partially_refunded`, see displayStateOf). */
export function stateWord(state: string, lang: Language) {
  const key = `states.${state}`;
  return i18nFor(lang).exists(key) ? translator(lang)(key) : state;
}
