import QRCode from "qrcode";
import type { DB } from "~/db/database.server";
import type { TransactionState } from "~/db/schema";
import { findAttempt } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { PAYABLE_STATES, RECEIPTED_STATES } from "~/domain/payments/states";
import { now } from "~/lib/clock.server";
import { sha256 } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { resultRows } from "~/presentation/result-rows.server";
import { once, type StoredResponse } from "~/web/idempotency.server";
import { linkBaseUrl } from "~/web/sign-in.server";

/** A form's one-time token as the counter's pages hand it out: random letters and digits. */
const FORM_TOKEN = /^[A-Za-z0-9]{22}$/;

/** One of the merchant's live transactions, as the counter's payment page shows it; undefined for anyone else's. */
export async function findCounterTransaction(db: DB, merchantId: number, id: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(id)) return undefined;
  return db
    .selectFrom("transactions")
    .select(["id", "merchant_id", "unit_id", "order_no", "state", "amount", "currency_code", "description", "customer_first_name", "customer_last_name", "expiration_time", "paid_attempt_id"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export type CounterTransaction = NonNullable<Awaited<ReturnType<typeof findCounterTransaction>>>;

/**
 * Where the payment stands as the counter follows it: `final` once nothing more can happen without
 * someone acting (paid, or past paying: expired, canceled, failed); `paid` once the money came. A
 * link past its time counts as expired even before the platform marks it so.
 */
export function counterState(transaction: Pick<CounterTransaction, "state" | "expiration_time" | "paid_attempt_id">) {
  const open = PAYABLE_STATES.includes(transaction.state);
  const state: TransactionState = open && transaction.expiration_time && new Date(transaction.expiration_time) <= now() ? "expired" : transaction.state;
  const paid = RECEIPTED_STATES.includes(state);
  return { state, final: !PAYABLE_STATES.includes(state), paid, attemptId: paid ? transaction.paid_attempt_id : null };
}

export type CounterState = ReturnType<typeof counterState>;

/** The state as the page's script reads it (GET pos/pay/:transactionId/state). */
export function stateJson(state: CounterState, lang: Language) {
  return { state: state.state, final: state.final, paid: state.paid, attempt_id: state.attemptId, attempt_url: state.attemptId ? `/${lang}/pos/attempt-detail/${state.attemptId}` : null };
}

/** The payment page: the pay link, its QR code for the customer's phone (an SVG made here), the amount. */
export async function counterPaymentView(transaction: CounterTransaction, lang: Language) {
  const payUrl = payUrlOf(linkBaseUrl(), lang, transaction.id);
  const state = counterState(transaction);
  return {
    lang,
    id: transaction.id,
    orderNo: Number(transaction.order_no),
    payUrl,
    qrSvg: await QRCode.toString(payUrl, { type: "svg", margin: 2, errorCorrectionLevel: "M" }),
    amount: formatAmount(transaction.amount, transaction.currency_code, lang),
    description: transaction.description,
    customer: [transaction.customer_first_name, transaction.customer_last_name].filter(Boolean).join(" ") || null,
    ...stateJson(state, lang),
  };
}

/** One of the merchant's payment attempts with its transaction; undefined for anyone else's. */
export async function findCounterAttempt(db: DB, merchantId: number, attemptId: string) {
  const attempt = await findAttempt(db, attemptId);
  if (!attempt || attempt.merchant_id !== merchantId) return undefined;
  const transaction = await db
    .selectFrom("transactions")
    .select(["id", "order_no", "description", "unit_id", "merchant_id"])
    .where("id", "=", attempt.transaction_id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return transaction ? { attempt, transaction } : undefined;
}

/**
 * The attempt's result as the counter's receipt prints it, every word in the page's language: paid
 * or not, the amount, the merchant, and the rows of the customer's own result (gateway, reference,
 * authorization code, date).
 */
export async function receiptView(db: DB, found: NonNullable<Awaited<ReturnType<typeof findCounterAttempt>>>, lang: Language) {
  const { attempt, transaction } = found;
  const t = translator(lang);
  const [gateway, merchant, unit] = await Promise.all([
    findMerchantGateway(db, attempt.merchant_id, attempt.gateway_code),
    db.selectFrom("merchants").select(["title_en", "title_ar"]).where("id", "=", attempt.merchant_id).executeTakeFirstOrThrow(),
    transaction.unit_id === null ? undefined : db.selectFrom("units").select(["title_en", "title_ar"]).where("id", "=", transaction.unit_id).where("merchant_id", "=", attempt.merchant_id).executeTakeFirst(),
  ]);
  const named = (row: { title_en: string | null; title_ar: string | null } | undefined) => (row ? (lang === "ar" ? row.title_ar || row.title_en : row.title_en || row.title_ar) : null);
  const rows = resultRows(attempt, Number(transaction.order_no), gateway, lang, { withDate: true }).map(([label, value]): [string, string] => [t(label), label === "result.status" ? t(value) : value]);
  const outcome = attempt.state === "success" || attempt.state === "cod" ? "paid" : attempt.state === "pending" ? "pending" : "failed";
  return {
    lang,
    id: attempt.id,
    outcome,
    merchant: named(unit) ?? named(merchant) ?? "",
    amount: formatAmount(attempt.total, attempt.currency_code, lang),
    description: transaction.description,
    rows,
    transactionId: transaction.id,
  };
}

/** Field errors as a page shows them: the first message of each field, in the page's language. */
export function fieldMessages(errors: Record<string, string[]>, params: TextParams | undefined, lang: Language): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, [first]]) => [field, describe(first ?? "errors.required", params, lang)]));
}

export type MadeOutcome = { ok: true; transactionId: string } | { ok: false; errors: Record<string, string[]>; params: TextParams };

/**
 * Makes what a counter form asks for once per form: the same form sent twice (a double tap, a
 * resend after a lost answer) finds the first payment; the same form sent again with other values
 * (a corrected amount) makes a new one. A form without a valid token is made as it comes.
 */
export async function makeOnce(db: DB, input: { merchantId: number; scope: string; token: string; fields: Record<string, string> }, make: () => Promise<MadeOutcome>): Promise<MadeOutcome | { ok: false; busy: true }> {
  const key = FORM_TOKEN.test(input.token) ? `${input.token}:${sha256(JSON.stringify(input.fields)).slice(0, 20)}` : null;
  const work = async (): Promise<StoredResponse> => {
    const made = await make();
    return made.ok ? { status: 201, body: { transactionId: made.transactionId } } : { status: 400, body: { errors: made.errors, params: made.params } };
  };
  // A second submit while the first is still being made waits for it, briefly, and answers the same.
  for (let tries = 0; tries < 20; tries++) {
    const outcome = await once(db, { merchantId: input.merchantId, key, scope: input.scope, request: input.fields, keyPrefix: "pos:" }, work);
    if (outcome.kind === "fresh" || outcome.kind === "replayed") {
      const body = outcome.response.body as { transactionId?: string; errors?: Record<string, string[]>; params?: TextParams };
      return body.transactionId ? { ok: true, transactionId: body.transactionId } : { ok: false, errors: body.errors ?? { non_field_errors: ["errors.unexpected_message"] }, params: body.params ?? {} };
    }
    if (outcome.kind !== "in_progress") break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { ok: false, busy: true };
}
