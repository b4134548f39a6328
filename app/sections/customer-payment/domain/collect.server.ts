import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import { z } from "zod";
import { engineOf, lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { PAYABLE_STATES, RECEIPTED_STATES } from "~/domain/payments/states";
import { createTransaction, transitionTransaction } from "~/domain/payments/transaction-state.server";
import { sha256 } from "~/lib/crypto.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { parseAmount } from "~/lib/money";
import { money, type TextParams } from "~/lib/outcome";
import { parseTextFields, type FieldMode } from "./collector-schema";
import type { Collector } from "./collectors.server";
import { effectiveRestrictions, isWithinDates, kuwaitToday, type EffectiveRestrictions } from "./restrictions.server";

/** How long a collector payment waits on the pay page; an abandoned one stops counting towards the daily cap after it. */
export const COLLECT_PAYMENT_HOLD_MS = 30 * 60_000;

/**
 * The states a payment may still be paid from when an attempt started before is completed (the
 * gateway took the money: a fact, even on a link that expired or was canceled meanwhile).
 */
const LATE_PAYABLE_STATES = [...PAYABLE_STATES, "expired", "canceled"] as const;

/**
 * Attempt states that may still bring money: waiting for the gateway, or recorded as failed,
 * canceled or in error while the reconciler still asks whether a capture followed (another tab).
 */
const OPEN_ATTEMPT_STATES = ["failed", "canceled", "error"] as const;

/** Unpaid and never attempted: the link was made, perhaps opened, and nobody started paying. */
const UNSTARTED_STATES = ["created", "pending"] as const;

/** A submission token as the form sends it: random letters and digits; anything else is ignored. */
const SUBMISSION_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export type AskedField = {
  /** The form's and the API's name: customer_name, customer_email, customer_phone, reference, extra.<key>. */
  name: string;
  kind: "name" | "email" | "phone" | "reference" | "text";
  /** Null for the standard fields: their labels are the platform's words (collect_public.fields.<kind>). */
  label: { en: string; ar: string } | null;
  required: boolean;
};

export type CollectForm = {
  collector: Collector;
  restrictions: EffectiveRestrictions;
  /** Within its days, with at least one currency it can take. */
  accepting: boolean;
  fields: AskedField[];
  /** The field that tells customers apart for the daily cap (null: no cap applies). */
  identity: "customer_phone" | "customer_email" | null;
  country: string;
};

const STANDARD: {
  kind: "name" | "email" | "phone" | "reference";
  name: string;
  column: "name_field" | "email_field" | "phone_field" | "reference_field";
}[] = [
  { kind: "name", name: "customer_name", column: "name_field" },
  { kind: "email", name: "customer_email", column: "email_field" },
  { kind: "phone", name: "customer_phone", column: "phone_field" },
  { kind: "reference", name: "reference", column: "reference_field" },
];

/**
 * What a collector's page asks and takes: its fields in order, its restrictions, whether it takes
 * payments today. With a daily cap, customers must be told apart and that field becomes required.
 * Under the merchant's cap, which counts every page's payments, it is always the phone (asked even
 * where the page would not), so that one customer is one customer on every page; under a page's own
 * cap, the phone when the page asks it, else the e-mail when it asks that, else the phone.
 */
export async function loadCollectForm(db: DB, collector: Collector): Promise<CollectForm> {
  const restrictions = await effectiveRestrictions(db, collector);
  const { country } = await loadMerchantDefaults(db, collector.merchant_id);
  const capped = Object.values(restrictions.limits).some((limit) => limit.dailyCap !== null);
  const modes: Record<string, FieldMode> = {
    name_field: collector.name_field,
    email_field: collector.email_field,
    phone_field: collector.phone_field,
    reference_field: collector.reference_field,
  };
  let identity: CollectForm["identity"] = null;
  if (capped) {
    identity =
      restrictions.scope === "merchant" || modes.phone_field !== "off" || modes.email_field === "off"
        ? "customer_phone"
        : "customer_email";
    modes[identity === "customer_phone" ? "phone_field" : "email_field"] = "required";
  }
  const fields: AskedField[] = [
    ...STANDARD.filter((field) => modes[field.column] !== "off").map((field) => ({
      name: field.name,
      kind: field.kind,
      label: null,
      required: modes[field.column] === "required",
    })),
    ...parseTextFields(collector.text_fields).map((field) => ({
      name: `extra.${field.name}`,
      kind: "text" as const,
      label: { en: field.label_en, ar: field.label_ar },
      required: field.required,
    })),
  ];
  return {
    collector,
    restrictions,
    accepting: isWithinDates(restrictions) && restrictions.currencies.length > 0,
    fields,
    identity,
    country,
  };
}

/** What a customer sends (the page's form and the API's body alike); free-text answers under `extra`. */
export const CollectPaymentSchema = z.object({
  amount: z.string().trim().max(30, "money.too_large").default(""),
  currency_code: z.string().trim().max(3).optional(),
  gateway_code: z.string().trim().max(40).optional(),
  customer_name: z.string().trim().max(100, "errors.too_long").optional(),
  customer_email: z.string().trim().max(254, "errors.too_long").optional(),
  customer_phone: z.string().trim().max(30, "errors.too_long").optional(),
  reference: z.string().trim().max(100, "errors.too_long").optional(),
  extra: z.record(z.string().max(40), z.string().trim().max(500, "errors.too_long")).default({}),
  /** The collector form's hidden token: the same submission sent twice makes one payment. */
  submission_token: z.string().trim().max(100).optional(),
});
export type CollectPaymentInput = z.output<typeof CollectPaymentSchema>;

const EMAIL = z.email();

function normalizePhone(value: string, country: string) {
  const parsed = parsePhoneNumberFromString(value, (country.toUpperCase() as CountryCode) || "KW");
  return parsed?.isValid() ? parsed.number : undefined;
}

/** Text for a remarks row ("label: value" rows split by "~"): the separators cannot appear inside. */
const remarkText = (text: string) => text.replace(/[~\r\n]+/g, " ").trim();
const remarkLabel = (text: string) => remarkText(text).replace(/:/g, " ");

export type CollectOutcome =
  | { ok: true; transaction: { id: string; orderNo: number; amount: number; currency: string; payUrl: string } }
  | { ok: false; kind: "closed" }
  | { ok: false; kind: "refused"; errors: FieldErrors; params: TextParams };

/** Thrown inside the write when the customer's day would pass the cap: the transaction is rolled back. */
class CapReached extends Error {
  constructor(readonly left: number) {
    super("daily cap reached");
  }
}

/**
 * The customer's total today through the collectors the cap covers, in one currency: every payment
 * that brought money (paid, authorized, cash on delivery, refunded: it was paid that day), an unpaid
 * one while its link can still be paid, and any payment — past its time, expired or canceled
 * included — while an attempt started on it may still be completed. Only a payment that can no
 * longer bring money stops counting.
 */
export async function customerDayTotal(
  db: DB,
  input: { merchantId: number; collectorId: number | null; customerKey: string; currency: string; day: string },
) {
  let query = db
    .selectFrom("customer_payments")
    .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("customer_payments.amount"), eb.lit(0)).as("total"))
    .where("customer_payments.merchant_id", "=", input.merchantId)
    .where("customer_payments.customer_key", "=", input.customerKey)
    .where("customer_payments.day", "=", input.day)
    .where("customer_payments.currency_code", "=", input.currency)
    .where((eb) =>
      eb.or([
        eb("transactions.state", "in", RECEIPTED_STATES),
        eb.and([eb("transactions.state", "in", PAYABLE_STATES), eb("transactions.expiration_time", ">", nowIso())]),
        eb.and([
          eb("transactions.state", "in", LATE_PAYABLE_STATES),
          eb.exists(
            eb
              .selectFrom("payment_attempts")
              .select("payment_attempts.id")
              .whereRef("payment_attempts.transaction_id", "=", "transactions.id")
              .where((attempt) =>
                attempt.or([
                  attempt("payment_attempts.state", "=", "pending"),
                  attempt.and([
                    attempt("payment_attempts.state", "in", OPEN_ATTEMPT_STATES),
                    attempt("payment_attempts.next_inquiry_at", "is not", null),
                  ]),
                ]),
              ),
          ),
        ]),
      ]),
    );
  if (input.collectorId !== null) query = query.where("customer_payments.collector_id", "=", input.collectorId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}

/**
 * What makes a submission the same submission: the form's token with a digest of what it sent. The
 * same form sent twice (a double tap, a resend) finds the first payment; the same form sent again
 * after the customer went back and changed the amount is a new payment.
 */
function submissionKey(
  token: string | undefined,
  sent: { amount: number; currency: string; gateway: string; values: Record<string, string> },
) {
  if (!token || !SUBMISSION_TOKEN.test(token)) return null;
  return `${token}:${sha256(JSON.stringify(sent)).slice(0, 20)}`;
}

/**
 * How long the same submission answers the payment it made: a double tap or a resend comes within
 * seconds; an old form sent again (back from a paid payment) is a new payment.
 */
const SUBMISSION_REPLAY_MS = 2 * 60_000;

/**
 * The payment a submission already made through this collector while it is still the one to show:
 * payable, not past its time, made a moment ago. An older one gives the submission up (its token is
 * cleared, under the merchant's lock) so that the form makes a new payment instead of showing a
 * finished one.
 */
async function findSubmission(trx: DB, collectorId: number, token: string) {
  const row = await trx
    .selectFrom("customer_payments")
    .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
    .select([
      "transactions.id",
      "transactions.order_no",
      "transactions.amount",
      "transactions.currency_code",
      "transactions.state",
      "transactions.expiration_time",
      "transactions.created_at",
    ])
    .where("customer_payments.collector_id", "=", collectorId)
    .where("customer_payments.submission_token", "=", token)
    .executeTakeFirst();
  if (!row) return null;
  const current =
    PAYABLE_STATES.includes(row.state) &&
    (!row.expiration_time || new Date(row.expiration_time) > now()) &&
    now().getTime() - new Date(row.created_at).getTime() < SUBMISSION_REPLAY_MS;
  if (!current) {
    await trx
      .updateTable("customer_payments")
      .set({ submission_token: null })
      .where("transaction_id", "=", row.id)
      .execute();
    return null;
  }
  return { id: row.id, orderNo: Number(row.order_no), amount: Number(row.amount), currency: row.currency_code };
}

/**
 * A customer who goes back from the pay page to correct the amount sends the form again: their
 * earlier payments through this collector that nobody started paying are ended (expired, audited)
 * so that they do not count against the cap twice. One with an attempt started is left alone: its
 * money may still come, and it counts. So is one staff made at the counter (it has an initiator).
 */
async function replaceUnstartedPayments(trx: DB, input: { collector: Collector; customerKey: string }) {
  const earlier = await trx
    .selectFrom("customer_payments")
    .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
    .select(["transactions.id", "transactions.order_no"])
    .where("customer_payments.collector_id", "=", input.collector.id)
    .where("customer_payments.customer_key", "=", input.customerKey)
    // A payment staff made at the counter is another sale, not the customer's earlier try.
    .where("transactions.initiator_user_id", "is", null)
    .where("transactions.state", "in", UNSTARTED_STATES)
    .where("transactions.expiration_time", ">", nowIso())
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("payment_attempts")
            .select("payment_attempts.id")
            .whereRef("payment_attempts.transaction_id", "=", "transactions.id"),
        ),
      ),
    )
    .execute();
  for (const payment of earlier) {
    // Locked before looking again: an attempt being started now either is seen, or waits for this
    // write (its row refers to the transaction's) and then finds the link expired.
    if (engineOf(trx) === "postgres")
      await trx.selectFrom("transactions").select("id").where("id", "=", payment.id).forUpdate().execute();
    const started = await trx
      .selectFrom("payment_attempts")
      .select("id")
      .where("transaction_id", "=", payment.id)
      .executeTakeFirst();
    if (started) continue;
    const moved = await transitionTransaction(
      trx,
      payment.id,
      "expired",
      { kind: "expired" },
      { from: UNSTARTED_STATES },
    );
    if (!moved.ok) continue;
    await recordAudit(trx, {
      merchantId: input.collector.merchant_id,
      actor: "customer",
      action: "collector_payment_replaced",
      params: {
        orderNo: Number(payment.order_no),
        title: { en: input.collector.title_en, ar: input.collector.title_ar },
      },
      objectType: "transaction",
      objectId: payment.id,
    });
  }
}

/**
 * A customer's payment through a collector: checked against the page's fields and its restrictions
 * (currency, gateway, amount between the minimum and the maximum, the day), then, in one database
 * transaction that holds the merchant's lock, against the customer's daily cap, and recorded as a
 * transaction of the section that the customer pays on the pay page. Two tabs at once cannot both
 * pass the cap: the second counts the first. The same form submitted twice answers the first
 * payment again.
 */
export async function createCollectorPayment(
  db: DB,
  request: {
    collector: Collector;
    input: CollectPaymentInput;
    lang: Language;
    baseUrl: string;
    /** Staff taking the payment for the customer (the point-of-sale counter): its initiator, and what made it. */
    counter?: { user: { id: number; username: string }; source: string };
  },
): Promise<CollectOutcome> {
  const { collector, input, lang } = request;
  if (!collector.is_active) return { ok: false, kind: "closed" };
  const form = await loadCollectForm(db, collector);
  if (!form.accepting) return { ok: false, kind: "closed" };
  const { restrictions } = form;
  const errors: FieldErrors = {};
  const params: TextParams = {};
  const add = (field: string, code: string) => void (errors[field] ??= [code]);

  const currency = (input.currency_code || restrictions.defaultCurrency).toUpperCase();
  if (!restrictions.currencies.includes(currency)) add("currency_code", "collect_public.errors.currency");

  const values: Record<string, string> = {};
  for (const field of form.fields) {
    const value =
      field.kind === "text"
        ? (input.extra[field.name.slice("extra.".length)] ?? "").trim()
        : (input[field.name as "customer_name" | "customer_email" | "customer_phone" | "reference"] ?? "").trim();
    if (!value) {
      if (field.required) add(field.name, "errors.required");
      continue;
    }
    if (field.kind === "email" && !EMAIL.safeParse(value).success) add(field.name, "errors.invalid_email");
    else if (field.kind === "phone") {
      const phone = normalizePhone(value, form.country);
      if (phone) values[field.name] = phone;
      else add(field.name, "errors.invalid_phone");
    } else values[field.name] = value;
  }

  let amount: number | null = null;
  if (!input.amount) add("amount", "errors.required");
  else {
    const parsed = parseAmount(
      input.amount,
      restrictions.currencies.includes(currency) ? currency : restrictions.defaultCurrency,
    );
    if (!parsed.ok) add("amount", parsed.error === "money.invalid" ? "pay.errors.positive_number" : parsed.error);
    else if (parsed.minor <= 0) add("amount", "pay.errors.positive_number");
    else amount = parsed.minor;
  }
  const limits = restrictions.limits[currency];
  if (amount !== null && limits) {
    if (amount < limits.min) {
      add("amount", "collect_public.errors.below_min");
      params.min = money(limits.min, currency);
    } else if (amount > limits.max) {
      add("amount", "collect_public.errors.above_max");
      params.max = money(limits.max, currency);
    }
  }

  const gateway = restrictions.gateways.find((candidate) => candidate.code === input.gateway_code);
  if (!input.gateway_code) add("gateway_code", "pay.errors.choose_gateway");
  else if (!gateway || (restrictions.currencies.includes(currency) && !supportsCurrency(gateway, currency)))
    add("gateway_code", "collect_public.errors.gateway");

  if (Object.keys(errors).length || amount === null || !gateway || !limits)
    return { ok: false, kind: "refused", errors, params };

  const customerKey = values.customer_phone ?? values.customer_email?.toLowerCase() ?? null;
  const title = lang === "ar" ? collector.title_ar : collector.title_en;
  const remarks = form.fields
    .filter((field) => field.kind === "reference" || field.kind === "text")
    .filter((field) => values[field.name])
    .map(
      (field) =>
        `${remarkLabel(field.label ? field.label[lang] : lang === "ar" ? "المرجع" : "Reference")}: ${remarkText(values[field.name])}`,
    )
    .join("~");
  const extra: Record<string, string> = { collector: collector.public_id };
  for (const field of form.fields)
    if (values[field.name] && (field.kind === "reference" || field.kind === "text"))
      extra[field.kind === "reference" ? "reference" : field.name.slice("extra.".length)] = values[field.name];
  if (request.counter) extra.source = request.counter.source;

  const today = kuwaitToday();
  const token = submissionKey(input.submission_token, { amount, currency, gateway: gateway.code, values });
  try {
    const made = await writeTransaction(db, async (trx) => {
      // The merchant's lock first, as every write of the merchant's takes it (createTransaction and
      // saveRestrictions included): one order of locks, so no deadlock, and one payment at a time
      // per merchant, so a cap that counts several pages' payments counts them all.
      await lockMerchant(trx, collector.merchant_id);
      if (token) {
        const repeat = await findSubmission(trx, collector.id, token);
        if (repeat) return repeat;
      }
      if (limits.dailyCap !== null && customerKey) {
        // At the counter each payment is a sale of its own: the earlier ones stay, and count.
        if (!request.counter) await replaceUnstartedPayments(trx, { collector, customerKey });
        const used = await customerDayTotal(trx, {
          merchantId: collector.merchant_id,
          collectorId: restrictions.scope === "collector" ? collector.id : null,
          customerKey,
          currency,
          day: today,
        });
        if (used + amount > limits.dailyCap) throw new CapReached(Math.max(0, limits.dailyCap - used));
      }
      const transaction = await createTransaction(trx, {
        merchant_id: collector.merchant_id,
        unit_id: collector.unit_id,
        plugin: "customer_payment",
        amount: amount!,
        currency_code: currency,
        editable_amount: 0,
        customer_email: values.customer_email ?? null,
        customer_phone: values.customer_phone ?? null,
        customer_first_name: values.customer_name ?? null,
        customer_last_name: null,
        description: title.slice(0, 1000),
        remarks: remarks ? remarks.slice(0, 2000) : null,
        attachment_path: null,
        attachment_name: null,
        pg_codes: gateway.code,
        expiration_time: addMs(now(), COLLECT_PAYMENT_HOLD_MS).toISOString(),
        next_url: null,
        initiator_user_id: request.counter?.user.id ?? null,
        gateway_code: null,
        paid_attempt_id: null,
        send_email: 0,
        send_sms: 0,
        extra: JSON.stringify(extra),
      });
      await trx
        .insertInto("customer_payments")
        .values({
          transaction_id: transaction.id,
          merchant_id: collector.merchant_id,
          collector_id: collector.id,
          customer_key: customerKey,
          currency_code: currency,
          amount: amount!,
          day: today,
          created_at: transaction.createdAt,
          submission_token: token,
        })
        .execute();
      await recordAudit(trx, {
        merchantId: collector.merchant_id,
        actor: request.counter?.user ?? "customer",
        action: "collector_payment_created",
        params: {
          orderNo: transaction.orderNo,
          amount: money(amount!, currency),
          title: { en: collector.title_en, ar: collector.title_ar },
        },
        objectType: "transaction",
        objectId: transaction.id,
      });
      return { id: transaction.id, orderNo: transaction.orderNo, amount: amount!, currency };
    });
    return { ok: true, transaction: { ...made, payUrl: payUrlOf(request.baseUrl, lang, made.id) } };
  } catch (error) {
    if (!(error instanceof CapReached)) throw error;
    return {
      ok: false,
      kind: "refused",
      errors: { amount: ["collect_public.errors.daily_cap"] },
      params: { cap: money(limits.dailyCap!, currency), left: money(error.left, currency) },
    };
  }
}
