import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { TransactionState } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { checkWebhookUrl } from "~/domain/integrations/webhook-targets.server";
import { hasFeature, loadAvailableSections, loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { attachmentName, isMerchantAttachmentKey } from "~/domain/payments/attachments.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { expireTransaction, isExpired } from "~/domain/payments/pay-page.server";
import { normalizePhone, parseExpiration } from "~/domain/payments/request-fields";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { createTransaction } from "~/domain/payments/transaction-state.server";
import { bumpTotals } from "~/domain/payments/running-totals.server";
import { now, nowIso } from "~/lib/clock.server";
import { publicId } from "~/lib/ids.server";
import type { Language } from "~/lib/i18n";
import { parseAmount, toDecimalString } from "~/lib/money";
import type { TextParams } from "~/lib/outcome";
import type { RequestMakerInput, RequestMakerResult } from "~/sections/contract";
import type { SessionChanges, SessionInput } from "./session-schema";
import type { SessionFilter } from "./session-filters";

/** How long a session can be paid when its merchant's server names no expiry (as Stripe's default). */
export const DEFAULT_SESSION_HOURS = 24;

export type FieldErrors = Record<string, string[]>;
type Failure = { ok: false; errors: FieldErrors; params: TextParams };
type Author = { id: number; username: string };

/** Whether the merchant has checkout sessions (the section and its list, as the dashboard checks). */
export async function offersSessions(db: DB, merchantId: number) {
  return hasFeature(await loadAvailableSections(db, merchantId), "session", "sessions");
}

/** The hosted checkout page of a session. */
export function checkoutUrlOf(baseUrl: string, lang: Language, sessionId: string) {
  return `${baseUrl.replace(/\/$/, "")}/${lang}/checkout/${sessionId}`;
}

/** Thrown inside the session's database transaction when its order number was taken meanwhile: rolls the transaction back. */
class OrderNumberTaken extends Error {}

async function orderNumberTaken(db: DB, merchantId: number, orderNo: string | undefined, except?: string) {
  if (!orderNo) return false;
  let query = db
    .selectFrom("checkout_sessions")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("order_no", "=", orderNo);
  if (except) query = query.where("id", "!=", except);
  return Boolean(await query.executeTakeFirst());
}

/** The addresses a session names: the webhook's is refused when private or loopback, as endpoints' are. */
async function checkAddresses(input: { webhook_url?: string }, errors: FieldErrors) {
  if (input.webhook_url) {
    const problem = await checkWebhookUrl(input.webhook_url);
    if (problem)
      errors.webhook_url = [
        problem === "admin.webhooks.errors.private" ? "sessions.errors.webhook_private" : "sessions.errors.url",
      ];
  }
}

function expirationOf(value: string | undefined, errors: FieldErrors): Date | undefined {
  if (!value) return undefined;
  const at = parseExpiration(value);
  if (!at) errors.expiration_time = ["sessions.errors.expiration_format"];
  else if (at <= now()) errors.expiration_time = ["sessions.errors.expiration_past"];
  return at;
}

async function checkGateways(
  db: DB,
  merchantId: number,
  codes: readonly string[],
  currency: string,
  errors: FieldErrors,
) {
  const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: true });
  const usable = new Set(
    gateways.filter((gateway) => supportsCurrency(gateway, currency)).map((gateway) => gateway.code),
  );
  if (codes.length === 0) errors.pg_codes = ["sessions.errors.pg_codes"];
  else if (codes.some((code) => !usable.has(code))) errors.pg_codes = ["sessions.errors.gateway_unavailable"];
}

function sessionRow(input: {
  id: string;
  merchantId: number;
  transactionId: string;
  request: SessionInput;
  user: Author;
}) {
  const at = nowIso();
  return {
    id: input.id,
    merchant_id: input.merchantId,
    transaction_id: input.transactionId,
    type: input.request.type,
    order_no: input.request.order_no ?? null,
    redirect_url: input.request.redirect_url ?? null,
    webhook_url: input.request.webhook_url ?? null,
    created_by: input.user.id,
    created_at: at,
    updated_at: at,
  };
}

/** Writes the session's row beside its transaction, under the merchant's lock its transaction took: one session per order number. */
async function insertSession(trx: DB, row: ReturnType<typeof sessionRow>, user: Author) {
  if (await orderNumberTaken(trx, row.merchant_id, row.order_no ?? undefined)) throw new OrderNumberTaken();
  await trx.insertInto("checkout_sessions").values(row).execute();
  await recordAudit(trx, {
    merchantId: row.merchant_id,
    actor: user,
    action: "checkout_session_created",
    params: { orderNo: row.order_no ?? row.id },
    objectType: "transaction",
    objectId: row.transaction_id,
  });
}

const takenOrderNumber = (orderNo: string | undefined): Failure => ({
  ok: false,
  errors: { order_no: ["sessions.errors.order_no_taken"] },
  params: { orderNo: orderNo ?? "" },
});

/**
 * A checkout session for a merchant's server: an `e_commerce` transaction made here, or a payment
 * request made by the section that owns them (services.server `requestMaker`, under its own rules), with
 * the session's row written in the same database transaction. One session per order number.
 */
export async function createSession(
  db: DB,
  input: {
    merchantId: number;
    user: Author;
    request: SessionInput;
    lang: Language;
    makeRequest: (db: DB, input: RequestMakerInput) => Promise<RequestMakerResult>;
  },
): Promise<{ ok: true; sessionId: string } | Failure> {
  const { request } = input;
  const errors: FieldErrors = {};
  await checkAddresses(request, errors);
  if (await orderNumberTaken(db, input.merchantId, request.order_no))
    errors.order_no = ["sessions.errors.order_no_taken"];
  const id = publicId();
  const lang = request.language ?? input.lang;
  const extra = { session_id: id, merchant_order_no: request.order_no ?? null, language: lang };

  if (request.type === "payment_request") {
    if (Object.keys(errors).length) return { ok: false, errors, params: { orderNo: request.order_no ?? "" } };
    const {
      type: _type,
      order_no: _orderNo,
      redirect_url: _redirect,
      webhook_url: _webhook,
      language: _language,
      ...fields
    } = request;
    try {
      const made = await input.makeRequest(db, {
        merchantId: input.merchantId,
        user: input.user,
        fields,
        lang,
        source: "checkout_session",
        extra,
        alongside: (trx, created) =>
          insertSession(
            trx,
            sessionRow({
              id,
              merchantId: input.merchantId,
              transactionId: created.transactionId,
              request,
              user: input.user,
            }),
            input.user,
          ),
      });
      return made.ok ? { ok: true, sessionId: id } : { ok: false, errors: made.errors, params: made.params };
    } catch (error) {
      if (error instanceof OrderNumberTaken) return takenOrderNumber(request.order_no);
      throw error;
    }
  }

  const defaults = await loadMerchantDefaults(db, input.merchantId);
  const currency = request.currency_code ?? defaults.currency;
  const amount = parseAmount(request.amount, currency);
  if (!amount.ok) errors.amount = [amount.error];
  else if (amount.minor <= 0) errors.amount = ["money.invalid"];
  await checkGateways(db, input.merchantId, request.pg_codes, currency, errors);
  let phone: string | undefined;
  if (request.customer_phone) {
    phone = normalizePhone(request.customer_phone, defaults.country);
    if (!phone) errors.customer_phone = ["sessions.errors.phone"];
  }
  if (request.attachment && !isMerchantAttachmentKey(input.merchantId, request.attachment))
    errors.attachment = ["attachment.errors.unknown"];
  const expiration =
    expirationOf(request.expiration_time, errors) ?? new Date(now().getTime() + DEFAULT_SESSION_HOURS * 3_600_000);
  if (Object.keys(errors).length || !amount.ok)
    return { ok: false, errors, params: { orderNo: request.order_no ?? "" } };
  try {
    await writeTransaction(db, async (trx) => {
      const made = await createTransaction(trx, {
        merchant_id: input.merchantId,
        plugin: "e_commerce",
        amount: amount.minor,
        currency_code: currency,
        editable_amount: 0,
        customer_email: request.customer_email ?? null,
        customer_phone: phone ?? null,
        customer_first_name: request.customer_first_name ?? null,
        customer_last_name: request.customer_last_name ?? null,
        description: request.description ?? null,
        remarks: null,
        attachment_path: request.attachment ?? null,
        attachment_name: request.attachment ? attachmentName(request.attachment) : null,
        pg_codes: request.pg_codes.join(","),
        expiration_time: expiration.toISOString(),
        next_url: null,
        initiator_user_id: input.user.id,
        gateway_code: null,
        paid_attempt_id: null,
        delivery_mode: "none",
        send_email: 0,
        send_sms: 0,
        extra: JSON.stringify(extra),
      });
      await insertSession(
        trx,
        sessionRow({ id, merchantId: input.merchantId, transactionId: made.id, request, user: input.user }),
        input.user,
      );
    });
  } catch (error) {
    if (error instanceof OrderNumberTaken) return takenOrderNumber(request.order_no);
    throw error;
  }
  return { ok: true, sessionId: id };
}

const SESSION_COLUMNS = [
  "checkout_sessions.id",
  "checkout_sessions.merchant_id",
  "checkout_sessions.type",
  "checkout_sessions.order_no",
  "checkout_sessions.redirect_url",
  "checkout_sessions.webhook_url",
  "checkout_sessions.created_at",
  "checkout_sessions.updated_at",
  "checkout_sessions.transaction_id",
  "transactions.state",
  "transactions.amount",
  "transactions.paid_amount",
  "transactions.refunded_amount",
  "transactions.currency_code",
  "transactions.customer_first_name",
  "transactions.customer_last_name",
  "transactions.customer_email",
  "transactions.customer_phone",
  "transactions.pg_codes",
  "transactions.expiration_time",
  "transactions.extra",
  "transactions.order_no as transaction_order_no",
] as const;

const sessionsOf = (db: DB) =>
  db
    .selectFrom("checkout_sessions")
    .innerJoin("transactions", "transactions.id", "checkout_sessions.transaction_id")
    .select(SESSION_COLUMNS);

export type SessionRecord = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/** A session of the merchant's, by its id; undefined for another merchant's, as for an unknown one. */
export async function findSession(db: DB, merchantId: number, sessionId: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(sessionId)) return undefined;
  return sessionsOf(db)
    .where("checkout_sessions.id", "=", sessionId)
    .where("checkout_sessions.merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** A session by its id alone: the hosted page, its API and the result page know no merchant. */
export async function findPublicSession(db: DB, sessionId: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(sessionId)) return undefined;
  return sessionsOf(db)
    .where("checkout_sessions.id", "=", sessionId)
    .where("transactions.deleted_at", "is", null)
    .executeTakeFirst();
}

/** The merchant's session for one of its order numbers (one session per order). */
export async function findSessionByOrderNo(db: DB, merchantId: number, orderNo: string) {
  return sessionsOf(db)
    .where("checkout_sessions.merchant_id", "=", merchantId)
    .where("checkout_sessions.order_no", "=", orderNo)
    .executeTakeFirst();
}

export async function findSessionOfTransaction(db: DB, transactionId: string) {
  return sessionsOf(db).where("checkout_sessions.transaction_id", "=", transactionId).executeTakeFirst();
}

/** The language the session's customer reads (given when it was made). */
export function sessionLanguage(session: Pick<SessionRecord, "extra">): Language {
  try {
    const language = (JSON.parse(session.extra) as { language?: unknown }).language;
    return language === "ar" ? "ar" : "en";
  } catch {
    return "en";
  }
}

/** The session's state as its merchant reads it: its transaction's, with a lapsed expiry already told as expired. */
export function sessionState(session: Pick<SessionRecord, "state" | "expiration_time">): TransactionState {
  return PAYABLE_STATES.includes(session.state) && isExpired(session) ? "expired" : session.state;
}

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);

/** The session as the API answers it (GET pymt-txn/{id}, and POST's 201). */
export async function serializeSession(db: DB, session: SessionRecord, baseUrl: string) {
  const attempts = await db
    .selectFrom("payment_attempts")
    .select(["id", "state", "gateway_code", "total", "currency_code", "created_at"])
    .where("transaction_id", "=", session.transaction_id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const money = (minor: number) => toDecimalString(minor, session.currency_code);
  return {
    session_id: session.id,
    type: session.type,
    state: sessionState(session),
    amount: money(session.amount),
    paid_amount: money(session.paid_amount),
    refunded_amount: money(session.refunded_amount),
    currency_code: session.currency_code,
    order_no: session.order_no,
    reference_number: session.transaction_order_no,
    customer_first_name: session.customer_first_name,
    customer_last_name: session.customer_last_name,
    customer_email: session.customer_email,
    customer_phone: session.customer_phone,
    pg_codes: session.pg_codes.split(",").filter(Boolean),
    redirect_url: session.redirect_url,
    webhook_url: session.webhook_url,
    expiration_time: iso(session.expiration_time),
    checkout_url: checkoutUrlOf(baseUrl, sessionLanguage(session), session.id),
    created: iso(session.created_at),
    attempts: attempts.map((attempt) => ({
      id: attempt.id,
      state: attempt.state,
      gateway: attempt.gateway_code,
      amount: toDecimalString(attempt.total, attempt.currency_code),
      created: iso(attempt.created_at),
    })),
  };
}

/**
 * Whether an attempt of the transaction may still settle: one pending, or one told failed, canceled
 * or in error that the reconciler is still to ask its gateway about (a late success is a fact).
 */
export async function attemptInFlight(db: DB, transactionId: string) {
  const attempt = await db
    .selectFrom("payment_attempts")
    .select("id")
    .where("transaction_id", "=", transactionId)
    .where((eb) =>
      eb.or([
        eb("state", "=", "pending"),
        eb.and([eb("state", "in", ["failed", "canceled", "error"]), eb("next_inquiry_at", "is not", null)]),
      ]),
    )
    .executeTakeFirst();
  return Boolean(attempt);
}

/**
 * The cart changed: the same session takes the new amount, customer, methods, expiry or addresses,
 * while it is unpaid and no attempt is being paid. A paid, expired or canceled session is refused.
 */
export async function changeSession(
  db: DB,
  input: { merchantId: number; user: Author; sessionId: string; changes: SessionChanges },
): Promise<{ ok: true } | Failure | { ok: false; notFound: true }> {
  const { changes } = input;
  const errors: FieldErrors = {};
  await checkAddresses(changes, errors);
  const expiration = expirationOf(changes.expiration_time, errors);
  const session = await findSession(db, input.merchantId, input.sessionId);
  if (!session) return { ok: false, notFound: true };
  const defaults = await loadMerchantDefaults(db, input.merchantId);
  let amount: number | undefined;
  if (changes.amount !== undefined) {
    const parsed = parseAmount(changes.amount, session.currency_code);
    if (!parsed.ok) errors.amount = [parsed.error];
    else if (parsed.minor <= 0) errors.amount = ["money.invalid"];
    else amount = parsed.minor;
  }
  if (changes.pg_codes !== undefined)
    await checkGateways(db, input.merchantId, changes.pg_codes, session.currency_code, errors);
  let phone: string | undefined;
  if (changes.customer_phone) {
    phone = normalizePhone(changes.customer_phone, defaults.country);
    if (!phone) errors.customer_phone = ["sessions.errors.phone"];
  }
  if (Object.keys(errors).length) return { ok: false, errors, params: {} };
  return writeTransaction(db, async (trx) => {
    // The transaction's row lock, as the core's operations take it: an attempt starting or settling waits for this change.
    const current = await trx
      .selectFrom("transactions")
      .select(["id", "state", "amount", "currency_code", "plugin", "expiration_time", "created_at"])
      .where("id", "=", session.transaction_id)
      .$if(engineOf(trx) === "postgres", (query) => query.forUpdate())
      .executeTakeFirstOrThrow();
    if (!PAYABLE_STATES.includes(current.state) || isExpired(current))
      return { ok: false as const, errors: { non_field_errors: ["sessions.errors.not_changeable"] }, params: {} };
    if (await attemptInFlight(trx, current.id)) {
      return { ok: false as const, errors: { non_field_errors: ["sessions.errors.attempt_in_flight"] }, params: {} };
    }
    const set = {
      ...(amount !== undefined ? { amount } : {}),
      ...(changes.pg_codes !== undefined ? { pg_codes: changes.pg_codes.join(",") } : {}),
      ...(changes.customer_first_name !== undefined ? { customer_first_name: changes.customer_first_name } : {}),
      ...(changes.customer_last_name !== undefined ? { customer_last_name: changes.customer_last_name } : {}),
      ...(changes.customer_email !== undefined
        ? { customer_email: changes.customer_email, customer_email_lc: changes.customer_email.toLowerCase() }
        : {}),
      ...(phone !== undefined ? { customer_phone: phone } : {}),
      ...(expiration ? { expiration_time: expiration.toISOString() } : {}),
    };
    // A changed amount stays where the state says, and the merchant's running totals follow it.
    const updated = await trx
      .updateTable("transactions")
      .set(set)
      .where("id", "=", current.id)
      .where("state", "=", current.state)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1)
      return { ok: false as const, errors: { non_field_errors: ["sessions.errors.not_changeable"] }, params: {} };
    if (amount !== undefined && amount !== current.amount) {
      await bumpTotals(
        trx,
        {
          merchantId: input.merchantId,
          plugin: current.plugin,
          currency: current.currency_code,
          at: current.created_at,
        },
        { generated_count: 0, generated_amount: amount - current.amount },
      );
    }
    await trx
      .updateTable("checkout_sessions")
      .set({
        ...(changes.redirect_url !== undefined ? { redirect_url: changes.redirect_url } : {}),
        ...(changes.webhook_url !== undefined ? { webhook_url: changes.webhook_url } : {}),
        updated_at: nowIso(),
      })
      .where("id", "=", session.id)
      .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.user,
      action: "checkout_session_changed",
      params: { orderNo: session.order_no ?? session.id },
      objectType: "transaction",
      objectId: session.transaction_id,
    });
    return { ok: true as const };
  });
}

/**
 * The sweep (every 30 seconds): unpaid sessions past their expiry with no attempt that may still
 * settle end through the core's expiry, each in its own database transaction, so their webhook_url
 * hears checkout_session.expired for an abandoned cart. Answers how many were expired.
 */
export async function expireLapsedSessions(db: DB) {
  const due = await db
    .selectFrom("checkout_sessions")
    .innerJoin("transactions", "transactions.id", "checkout_sessions.transaction_id")
    .select("transactions.id")
    .where("transactions.state", "in", PAYABLE_STATES)
    .where("transactions.expiration_time", "<", nowIso())
    .where("transactions.deleted_at", "is", null)
    .orderBy("transactions.expiration_time")
    .limit(500)
    .execute();
  let expired = 0;
  for (const { id } of due) {
    if (await attemptInFlight(db, id)) continue;
    if ((await expireTransaction(db, id)).ok) expired++;
  }
  return expired;
}

export const SESSIONS_PAGE_SIZE = 50;

/** The merchant's sessions, newest first, a page at a time; by state and by the merchant's order number. */
export async function listSessions(
  db: DB,
  merchantId: number,
  filter: { state?: SessionFilter; orderNo?: string; page: number },
) {
  let query = db
    .selectFrom("checkout_sessions")
    .innerJoin("transactions", "transactions.id", "checkout_sessions.transaction_id")
    .where("checkout_sessions.merchant_id", "=", merchantId)
    .where("transactions.deleted_at", "is", null);
  // A session whose time ran out reads as expired before the sweep has ended it (sessionState).
  const at = nowIso();
  if (filter.state === "expired") {
    query = query.where((eb) =>
      eb.or([
        eb("transactions.state", "=", "expired"),
        eb.and([
          eb("transactions.state", "in", PAYABLE_STATES),
          eb("transactions.expiration_time", "is not", null),
          eb("transactions.expiration_time", "<", at),
        ]),
      ]),
    );
  } else if (filter.state && PAYABLE_STATES.includes(filter.state)) {
    query = query
      .where("transactions.state", "=", filter.state)
      .where((eb) =>
        eb.or([eb("transactions.expiration_time", "is", null), eb("transactions.expiration_time", ">=", at)]),
      );
  } else if (filter.state) query = query.where("transactions.state", "=", filter.state);
  if (filter.orderNo) query = query.where("checkout_sessions.order_no", "=", filter.orderNo);
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
  const rows = await query
    .select(SESSION_COLUMNS)
    .orderBy("checkout_sessions.created_at", "desc")
    .orderBy("checkout_sessions.id", "desc")
    .limit(SESSIONS_PAGE_SIZE)
    .offset((Math.max(1, filter.page) - 1) * SESSIONS_PAGE_SIZE)
    .execute();
  return { count: Number(count), rows };
}
