import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { cardEnding, formatDateTime } from "~/lib/format";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "~/lib/i18n";
import { money, word } from "~/lib/outcome";
import { queueMail } from "./mail.server";
import type { MailRow } from "./mail-templates.server";

/**
 * The customer's mails about their money: the receipt when a payment completes and a notice when a
 * refund does. Each is queued inside the database transaction that records the money, by the one
 * writer that moved it, so it exists exactly when — and exactly as often as — the money moved.
 */

type PaidAttempt = {
  amount: number;
  fee: number;
  total: number;
  fee_payer: "customer" | "merchant";
  currency_code: string;
  state: string;
  gateway_code: string;
  completed_at: string | null;
};

/** The customer's full name, or null when the request has none. */
export function customerName(transaction: { customer_first_name: string | null; customer_last_name: string | null }) {
  const name = [transaction.customer_first_name, transaction.customer_last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  return name || null;
}

/**
 * What was paid, as the receipt (mail and PDF) shows it: the amount, the fee the customer paid on
 * top and the total; only the total when there is no such fee. Cash on delivery is still to pay.
 */
export function amountRows(attempt: PaidAttempt): MailRow[] {
  const amount = (minor: number) => money(minor, attempt.currency_code);
  if (attempt.state === "cod") return [["receipt.amount_due", amount(attempt.total)]];
  if (attempt.fee > 0 && attempt.fee_payer === "customer") {
    return [
      ["mail.labels.amount", amount(attempt.amount)],
      ["mail.labels.fee", amount(attempt.fee)],
      ["mail.labels.total_paid", amount(attempt.total)],
    ];
  }
  return [["mail.labels.total_paid", amount(attempt.total)]];
}

/** The gateway's name in the reader's language (its code when the merchant has removed it). */
export async function paymentMethodName(
  db: DB,
  merchantId: number,
  gatewayCode: string,
  lang: Language,
  cardMasked: string | null = null,
) {
  // Read here rather than through payments: payments calls into messaging, never the other way.
  const gateway = await db
    .selectFrom("gateways")
    .select(["name_en", "name_ar"])
    .where("merchant_id", "=", merchantId)
    .where("code", "=", gatewayCode)
    .executeTakeFirst();
  const name = gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : gatewayCode;
  // The card's last four digits, as a receipt shows them; the rest of the number is never shown.
  return cardMasked ? `${name} \u2066${cardEnding(cardMasked)}\u2069` : name;
}

/** The receipt of a completed payment, to the customer's address, in the language they paid in. */
export async function queueReceiptMail(db: DB, input: { attemptId: string }) {
  const row = await db
    .selectFrom("payment_attempts as a")
    .innerJoin("transactions as t", "t.id", "a.transaction_id")
    .select([
      "a.amount",
      "a.fee",
      "a.total",
      "a.fee_payer",
      "a.currency_code",
      "a.state",
      "a.gateway_code",
      "a.card_masked",
      "a.completed_at",
      "a.track_id",
      "a.lang",
      "t.merchant_id",
      "t.unit_id",
      "t.order_no",
      "t.customer_email",
      "t.customer_first_name",
      "t.customer_last_name",
      "t.description",
    ])
    .where("a.id", "=", input.attemptId)
    .executeTakeFirst();
  if (!row?.customer_email) return;
  const lang = isLanguage(row.lang) ? row.lang : DEFAULT_LANGUAGE;
  const name = customerName(row);
  const rows: MailRow[] = [
    ["mail.labels.order_no", row.order_no],
    ...(name ? [["mail.labels.customer", name] as MailRow] : []),
    ...(row.description ? [["mail.labels.description", row.description] as MailRow] : []),
    ...amountRows(row),
    ["mail.labels.method", await paymentMethodName(db, row.merchant_id, row.gateway_code, lang, row.card_masked)],
    ["mail.labels.reference", row.track_id],
    ["mail.labels.date", formatDateTime(row.completed_at ?? nowIso(), lang)],
  ];
  await queueMail(db, {
    merchantId: row.merchant_id,
    unitId: row.unit_id,
    to: row.customer_email,
    template: "receipt",
    params: { orderNo: row.order_no, amount: money(row.total, row.currency_code), reference: row.track_id, name },
    rows,
    lang,
  });
}

/** The job that writes a completed refund's mail to the customer, queued with the record of the refund. */
export const REFUND_MAIL_JOB = "refund_mail";

/**
 * Tells the customer a refund went through: how much now, how much in all, what stays paid. Run by
 * the refund_mail job that the one write recording the refund as done queues (operations:
 * recordOperationResult), so the request that sent it and the reconciler that asked about it cannot
 * both send it.
 */
export async function queueRefundMail(db: DB, input: { operationId: number }) {
  const operation = await db
    .selectFrom("transaction_operations as op")
    .innerJoin("transactions as t", "t.id", "op.transaction_id")
    .select([
      "op.id",
      "op.kind",
      "op.state",
      "op.amount",
      "op.currency_code",
      "op.attempt_id",
      "op.completed_at",
      "t.id as transaction_id",
      "t.merchant_id",
      "t.unit_id",
      "t.order_no",
      "t.customer_email",
      "t.customer_first_name",
      "t.customer_last_name",
      "t.captured_amount",
      "t.paid_attempt_id",
    ])
    .where("op.id", "=", input.operationId)
    .executeTakeFirst();
  if (!operation || operation.kind !== "refund" || operation.state !== "succeeded" || !operation.customer_email) return;
  const attemptId = operation.attempt_id ?? operation.paid_attempt_id;
  const attempt = attemptId
    ? await db
        .selectFrom("payment_attempts")
        .select(["total", "track_id", "lang"])
        .where("id", "=", attemptId)
        .executeTakeFirst()
    : undefined;
  // A refund of the transaction's payment counts with the others of it; one of a second, duplicate payment with that payment's.
  const ofPaidAttempt = !operation.attempt_id || operation.attempt_id === operation.paid_attempt_id;
  let refunds = db
    .selectFrom("transaction_operations")
    .select((eb) => eb.fn.sum<number>("amount").as("total"))
    .where("transaction_id", "=", operation.transaction_id)
    .where("kind", "=", "refund")
    .where("state", "=", "succeeded");
  refunds = ofPaidAttempt
    ? refunds.where((eb) =>
        operation.paid_attempt_id
          ? eb.or([eb("attempt_id", "is", null), eb("attempt_id", "=", operation.paid_attempt_id)])
          : eb("attempt_id", "is", null),
      )
    : refunds.where("attempt_id", "=", operation.attempt_id);
  const refunded = Number((await refunds.executeTakeFirst())?.total ?? 0);
  const paid = ofPaidAttempt ? operation.captured_amount : (attempt?.total ?? operation.amount);
  const lang = attempt && isLanguage(attempt.lang) ? attempt.lang : DEFAULT_LANGUAGE;
  const name = customerName(operation);
  const amount = (minor: number) => money(minor, operation.currency_code);
  const rows: MailRow[] = [
    ["mail.labels.order_no", operation.order_no],
    ...(attempt ? [["mail.labels.reference", attempt.track_id] as MailRow] : []),
    ["mail.labels.paid", amount(paid)],
    ["mail.labels.refunded", amount(operation.amount)],
    ...(refunded > operation.amount ? [["mail.labels.refunded_total", amount(refunded)] as MailRow] : []),
    ["mail.labels.remaining", amount(Math.max(0, paid - refunded))],
    ["mail.labels.date", formatDateTime(operation.completed_at ?? nowIso(), lang)],
  ];
  await queueMail(db, {
    merchantId: operation.merchant_id,
    unitId: operation.unit_id,
    to: operation.customer_email,
    template: "refund",
    params: { orderNo: operation.order_no, amount: amount(operation.amount), name },
    rows,
    lang,
  });
}

/**
 * Tells the customer that a payment which should not have been taken (an order canceled before it
 * arrived, a second payment of what was paid) is being given back by itself, in the language they
 * paid in; queued with the record of the return (payments: returns.server), so it is sent once.
 */
export async function queuePaymentReturnMail(db: DB, input: { attemptId: string; reason: string }) {
  const row = await db
    .selectFrom("payment_attempts as a")
    .innerJoin("transactions as t", "t.id", "a.transaction_id")
    .select([
      "a.total",
      "a.currency_code",
      "a.track_id",
      "a.lang",
      "a.completed_at",
      "t.merchant_id",
      "t.unit_id",
      "t.order_no",
      "t.customer_email",
      "t.customer_first_name",
      "t.customer_last_name",
    ])
    .where("a.id", "=", input.attemptId)
    .executeTakeFirst();
  if (!row?.customer_email) return;
  const lang = isLanguage(row.lang) ? row.lang : DEFAULT_LANGUAGE;
  const name = customerName(row);
  const amount = money(row.total, row.currency_code);
  await queueMail(db, {
    merchantId: row.merchant_id,
    unitId: row.unit_id,
    to: row.customer_email,
    template: "payment_return",
    params: { orderNo: row.order_no, amount, name, reason: word(`payment_return.reasons.${input.reason}`) },
    rows: [
      ["mail.labels.order_no", row.order_no],
      ["mail.labels.reference", row.track_id],
      ["mail.labels.returned", amount],
      ["mail.labels.date", formatDateTime(row.completed_at ?? nowIso(), lang)],
    ],
    lang,
  });
}
