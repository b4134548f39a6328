import QRCode from "qrcode";
import type { DB } from "~/db/database.server";
import type { TransactionState } from "~/db/schema";
import { findAttempt } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { addMs, now } from "~/lib/clock.server";
import { sha256 } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { resultRows } from "~/presentation/result-rows.server";
import { once, type KeyCaller, type StoredResponse } from "~/web/idempotency.server";
import { linkBaseUrl } from "~/web/sign-in.server";

/** A form's one-time token as the counter's pages hand it out: random letters and digits. */
const FORM_TOKEN = /^[A-Za-z0-9]{22}$/;

/**
 * How long a payment made at the counter can be paid: the customer is in front of the counter, so a
 * link left on the screen (or photographed) stops working soon after (decision 0032).
 */
export const COUNTER_LINK_MS = 30 * 60_000;

/** When a counter payment made now stops taking payments, as the request maker reads it. */
export const counterExpiration = () => addMs(now(), COUNTER_LINK_MS).toISOString();

/**
 * How long the same form sent again answers the payment it already made: a double tap or a resend
 * comes within seconds; an old form sent again (back from a paid payment) is a new sale.
 */
export const FORM_REPLAY_MS = 2 * 60_000;

/** One of the merchant's live transactions, as the counter's payment page shows it; undefined for anyone else's. */
export async function findCounterTransaction(db: DB, merchantId: number, id: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(id)) return undefined;
  return db
    .selectFrom("transactions")
    .select([
      "id",
      "merchant_id",
      "unit_id",
      "order_no",
      "state",
      "amount",
      "currency_code",
      "description",
      "customer_first_name",
      "customer_last_name",
      "expiration_time",
      "paid_attempt_id",
      "created_at",
    ])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export type CounterTransaction = NonNullable<Awaited<ReturnType<typeof findCounterTransaction>>>;

/**
 * Whether a payment attempt on the transaction may still be completed: one waiting for the
 * gateway's answer, or one the platform still asks the gateway about (as the collector's daily cap
 * counts it). The core lets an expired or canceled link take such a payment when it completes.
 */
export async function attemptInFlight(db: DB, transactionId: string) {
  const row = await db
    .selectFrom("payment_attempts")
    .select("id")
    .where("transaction_id", "=", transactionId)
    .where((eb) => eb.or([eb("state", "=", "pending"), eb("next_inquiry_at", "is not", null)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** What could still become of a payment that took no money: an expired or canceled link still takes a started payment. */
const LATE_PAYABLE_STATES: readonly TransactionState[] = ["expired", "canceled"];

/**
 * Where the payment stands as the counter follows it: `final` once nothing more can happen without
 * someone acting (paid, authorized, refunded, or past paying with no attempt that may still be
 * completed); `paid` only once the money came (`paid`: an authorization, cash on delivery or a
 * refund is not a paid sale at the counter). A link past its time counts as expired even before the
 * platform marks it so.
 */
export function counterState(
  transaction: Pick<CounterTransaction, "state" | "expiration_time" | "paid_attempt_id">,
  inFlight: boolean,
) {
  const open = PAYABLE_STATES.includes(transaction.state);
  const state: TransactionState =
    open && transaction.expiration_time && new Date(transaction.expiration_time) <= now()
      ? "expired"
      : transaction.state;
  const paid = state === "paid";
  const final = !PAYABLE_STATES.includes(state) && !(LATE_PAYABLE_STATES.includes(state) && inFlight);
  return { state, final, paid, inFlight, attemptId: transaction.paid_attempt_id };
}

/** The payment's state, reading whether an attempt on it is still in flight. */
export async function loadCounterState(db: DB, transaction: CounterTransaction) {
  return counterState(transaction, await attemptInFlight(db, transaction.id));
}

export type CounterState = ReturnType<typeof counterState>;

/** The state as the page's script reads it (GET pos/pay/:transactionId/state). */
export function stateJson(state: CounterState, lang: Language) {
  return {
    state: state.state,
    final: state.final,
    paid: state.paid,
    in_flight: state.inFlight,
    attempt_id: state.attemptId,
    attempt_url: state.attemptId ? `/${lang}/pos/attempt-detail/${state.attemptId}` : null,
  };
}

/** The payment page: the pay link, its QR code for the customer's phone (an SVG made here), the amount. */
export async function counterPaymentView(db: DB, transaction: CounterTransaction, lang: Language) {
  const payUrl = payUrlOf(linkBaseUrl(), lang, transaction.id);
  const state = await loadCounterState(db, transaction);
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
    .select(["id", "order_no", "description", "unit_id", "merchant_id", "state", "paid_attempt_id"])
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
export async function receiptView(
  db: DB,
  found: NonNullable<Awaited<ReturnType<typeof findCounterAttempt>>>,
  lang: Language,
) {
  const { attempt, transaction } = found;
  const t = translator(lang);
  const [gateway, merchant, unit] = await Promise.all([
    findMerchantGateway(db, attempt.merchant_id, attempt.gateway_code),
    db
      .selectFrom("merchants")
      .select(["title_en", "title_ar"])
      .where("id", "=", attempt.merchant_id)
      .executeTakeFirstOrThrow(),
    transaction.unit_id === null
      ? undefined
      : db
          .selectFrom("units")
          .select(["title_en", "title_ar"])
          .where("id", "=", transaction.unit_id)
          .where("merchant_id", "=", attempt.merchant_id)
          .executeTakeFirst(),
  ]);
  const named = (row: { title_en: string | null; title_ar: string | null } | undefined) =>
    row ? (lang === "ar" ? row.title_ar || row.title_en : row.title_en || row.title_ar) : null;
  const rows = resultRows(attempt, Number(transaction.order_no), gateway, lang, { withDate: true }).map(
    ([label, value]): [string, string] => [t(label), label === "result.status" ? t(value) : value],
  );
  // The transaction's own word for its payment: an authorization or a refund is not a plain "Paid".
  const own =
    transaction.paid_attempt_id === attempt.id &&
    (transaction.state === "authorized" || transaction.state === "refunded" || transaction.state === "voided")
      ? transaction.state
      : null;
  const outcome =
    attempt.state === "cod"
      ? "cod"
      : attempt.state === "success"
        ? (own ?? "paid")
        : attempt.state === "pending"
          ? "pending"
          : "failed";
  const merchantName = named(unit) ?? named(merchant) ?? "";
  return {
    lang,
    id: attempt.id,
    outcome,
    paperMm: receiptLengthMm({ merchant: merchantName, description: transaction.description, rows }),
    merchant: merchantName,
    amount: formatAmount(attempt.total, attempt.currency_code, lang),
    description: transaction.description,
    rows,
    transactionId: transaction.id,
  };
}

/**
 * How long the printed receipt is, in millimetres of an 80 mm roll: CSS has no "as long as the
 * content" page size, so the page is sized from what it prints (pos.css's print sizes: 10 pt lines
 * of about 34 monospace characters, the larger heading lines, the paddings), with room to spare.
 */
export function receiptLengthMm(content: { merchant: string; description: string | null; rows: [string, string][] }) {
  const LINE = 5.2;
  const linesOf = (text: string, perLine: number) => Math.max(1, Math.ceil(text.length / perLine));
  let mm = 4 + 8; // the receipt's own top and bottom padding
  mm += linesOf(content.merchant, 28) * 6;
  mm += 3 + 7; // the outcome, below its margin
  mm += 9 + 2; // the amount
  if (content.description)
    mm += content.description.split("\n").reduce((sum, line) => sum + linesOf(line, 34), 0) * LINE + 2;
  mm += 9; // the rows' rules and spacing
  for (const [label, value] of content.rows) mm += linesOf(`${label} ${value}`, 32) * LINE;
  mm += 5; // the thanks
  return Math.ceil(mm + 12);
}

/** Field errors as a page shows them: the first message of each field, in the page's language. */
export function fieldMessages(
  errors: Record<string, string[]>,
  params: TextParams | undefined,
  lang: Language,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, [first]]) => [field, describe(first ?? "errors.required", params, lang)]),
  );
}

export type MadeOutcome =
  { ok: true; transactionId: string } | { ok: false; errors: Record<string, string[]>; params: TextParams };

/**
 * Whether a payment the same form made is still the one to show: payable (not paid, not past its
 * time, not withdrawn) and made a moment ago. Otherwise the form is an old one sent again, and its
 * values make a new sale instead of showing a finished one.
 */
async function stillTheSameSale(db: DB, merchantId: number, transactionId: string) {
  const row = await findCounterTransaction(db, merchantId, transactionId);
  if (!row || !PAYABLE_STATES.includes(row.state)) return false;
  if (row.expiration_time && new Date(row.expiration_time) <= now()) return false;
  return now().getTime() - new Date(row.created_at).getTime() < FORM_REPLAY_MS;
}

/**
 * Makes what a counter form asks for once per form: the same form sent twice (a double tap, a
 * resend after a lost answer) finds the first payment while it is still payable and recent; the
 * same form sent again with other values (a corrected amount), or sent again once its payment was
 * paid, withdrawn or a while ago, makes a new one. A form without a valid token is made as it comes.
 */
export async function makeOnce(
  db: DB,
  input: { merchantId: number; caller: KeyCaller; scope: string; token: string; fields: Record<string, string> },
  make: () => Promise<MadeOutcome>,
): Promise<MadeOutcome | { ok: false; busy: true }> {
  let key = FORM_TOKEN.test(input.token) ? `${input.token}:${sha256(JSON.stringify(input.fields)).slice(0, 20)}` : null;
  const work = async (): Promise<StoredResponse> => {
    const made = await make();
    return made.ok
      ? { status: 201, body: { transactionId: made.transactionId } }
      : { status: 400, body: { errors: made.errors, params: made.params } };
  };
  // A second submit while the first is still being made waits for it, briefly, and answers the same.
  for (let tries = 0; tries < 20; tries++) {
    const outcome = await once(
      db,
      {
        merchantId: input.merchantId,
        caller: input.caller,
        key,
        scope: input.scope,
        request: input.fields,
        keyPrefix: "pos:",
      },
      work,
    );
    if (outcome.kind === "fresh" || outcome.kind === "replayed") {
      const body = outcome.response.body as {
        transactionId?: string;
        errors?: Record<string, string[]>;
        params?: TextParams;
      };
      if (
        outcome.kind === "replayed" &&
        body.transactionId &&
        key &&
        !(await stillTheSameSale(db, input.merchantId, body.transactionId))
      ) {
        // The next sale of this form: keyed after the one it follows, so that two copies of it sent
        // at once still make one.
        key = `${key.split(":after:")[0]}:after:${body.transactionId}`;
        continue;
      }
      return body.transactionId
        ? { ok: true, transactionId: body.transactionId }
        : {
            ok: false,
            errors: body.errors ?? { non_field_errors: ["errors.unexpected_message"] },
            params: body.params ?? {},
          };
    }
    if (outcome.kind !== "in_progress") break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { ok: false, busy: true };
}
