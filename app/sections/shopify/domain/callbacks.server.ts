import { createHmac } from "node:crypto";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { postToReceiver, RETRY_AFTER_MS, type ReceiverAnswer } from "~/domain/integrations/webhooks.server";
import { findAttempt, settleByInquiry, type PlatformAddresses } from "~/domain/payments/attempts.server";
import { expireTransaction } from "~/domain/payments/pay-page.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { addMs, now, nowIso } from "~/lib/clock.server";
import { enqueueJob } from "~/lib/jobs.server";
import { toDecimalString } from "~/lib/money";
import { money } from "~/lib/outcome";
import { isShopAddress, loadConnection } from "./connection.server";
import { EXPIRE_JOB } from "./sessions.server";

export const CALLBACK_JOB = "shopify.callback";
/** Tries of one callback: the first and one after each wait of the webhooks' schedule, over about a day and a half. */
export const CALLBACK_MAX_ATTEMPTS = RETRY_AFTER_MS.length + 1;
/** The header that carries the signature: base64 of HMAC-SHA256 of the raw body with the connection's secret. */
export const SIGNATURE_HEADER = "X-Shopify-Hmac-SHA256";
/** How long a reject waits for an attempt its gateway has not answered yet, and how many times. */
export const REJECT_WAIT_MS = 5 * 60_000;
export const REJECT_MAX_WAITS = 3;
/** The most of the platform's answer that is read: its redirect_url is all it is read for. */
const ANSWER_KEEP = 4096;

export type CallbackAction = "resolve" | "reject";
/** One try of a callback; `manual` (Send again): that one try only; `waits`: how often a reject has waited for an open attempt. */
export type CallbackJob = {
  transactionId: string;
  action: CallbackAction;
  reason?: string;
  manual?: boolean;
  waits?: number;
};

/** The signature of a callback's body, as the shop platform checks it. */
export function signatureOf(secret: string, body: string) {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

/** What the section keeps of a session on its transaction's `extra.shop`. */
type ShopNote = Record<string, unknown> & { rejected_at?: string; paid_after_reject?: boolean };

async function readShopNote(trx: DB, transactionId: string) {
  let query = trx.selectFrom("transactions").select(["state", "extra"]).where("id", "=", transactionId);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  let extra: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row.extra) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) extra = parsed as Record<string, unknown>;
  } catch {
    // An unreadable note is written afresh.
  }
  const shop =
    extra.shop && typeof extra.shop === "object" && !Array.isArray(extra.shop) ? (extra.shop as ShopNote) : {};
  return { state: row.state, extra, shop };
}

async function noteShop(
  trx: DB,
  transactionId: string,
  note: { extra: Record<string, unknown>; shop: ShopNote },
  values: Partial<ShopNote>,
) {
  await trx
    .updateTable("transactions")
    .set({ extra: JSON.stringify({ ...note.extra, shop: { ...note.shop, ...values } }) })
    .where("id", "=", transactionId)
    .execute();
}

/**
 * What the section does when one of its transactions changes state, inside the same database
 * transaction: a payment (paid or authorized) queues the signed resolve; a transaction that ends
 * unpaid (expired, canceled) queues the reject. A failed attempt does not: the customer may still
 * pay with another method until the session expires. A payment that lands after the shop was
 * told reject is not resolved (the shop has closed its checkout): it is recorded on the
 * transaction and in the audit log, asking the merchant to refund it. Never throws for a payment.
 */
export async function onShopifyTransition(trx: DB, event: TransitionEvent) {
  const paid = event.cause.kind === "payment" && (event.to === "paid" || event.to === "authorized");
  const ended = (event.to === "expired" || event.to === "canceled") && event.cause.kind !== "payment";
  if (!paid && !ended) return;
  const session = await trx
    .selectFrom("shopify_payment_sessions")
    .select(["merchant_id", "payment_id"])
    .where("transaction_id", "=", event.transaction.id)
    .executeTakeFirst();
  if (!session) return;
  if (ended) {
    await queueCallback(trx, { transactionId: event.transaction.id, action: "reject", reason: event.to });
    return;
  }
  const note = await readShopNote(trx, event.transaction.id);
  if (note?.shop.rejected_at) {
    await noteShop(trx, event.transaction.id, note, { paid_after_reject: true });
    await recordAudit(trx, {
      merchantId: session.merchant_id,
      actor: "system",
      action: "shopify_paid_after_reject",
      params: {
        orderNo: event.transaction.order_no,
        amount: money(event.transaction.amount, event.transaction.currency_code),
        payment: session.payment_id,
      },
      objectType: "transaction",
      objectId: event.transaction.id,
    });
    return;
  }
  await queueCallback(trx, { transactionId: event.transaction.id, action: "resolve" });
}

/** Queues a try; the job itself is taken again only if its worker stopped during it. */
function queueCallback(db: DB, job: CallbackJob, runAt?: Date) {
  return enqueueJob(db, CALLBACK_JOB, job, { runAt, maxAttempts: 3 });
}

/** The body the shop platform receives (its payment session's resolve or reject, with our transaction). */
export async function callbackBody(db: DB, job: CallbackJob) {
  const row = await db
    .selectFrom("shopify_payment_sessions")
    .innerJoin("transactions", "transactions.id", "shopify_payment_sessions.transaction_id")
    .leftJoin("payment_attempts", "payment_attempts.id", "transactions.paid_attempt_id")
    .select([
      "shopify_payment_sessions.merchant_id",
      "shopify_payment_sessions.payment_id",
      "shopify_payment_sessions.gid",
      "shopify_payment_sessions.group_id",
      "shopify_payment_sessions.kind",
      "shopify_payment_sessions.test",
      "transactions.id as transaction_id",
      "transactions.order_no",
      "transactions.state",
      "transactions.amount",
      "transactions.currency_code",
      "payment_attempts.id as attempt_id",
      "payment_attempts.gateway_code",
      "payment_attempts.payment_id as gateway_payment_id",
      "payment_attempts.auth_code",
      "payment_attempts.reference_id",
      "payment_attempts.completed_at",
    ])
    .where("shopify_payment_sessions.transaction_id", "=", job.transactionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const body = {
    action: job.action,
    id: row.payment_id,
    gid: row.gid,
    group: row.group_id,
    kind: row.kind,
    test: row.test === 1,
    amount: toDecimalString(row.amount, row.currency_code),
    currency: row.currency_code,
    transaction_id: row.transaction_id,
    order_no: row.order_no,
    state: row.state,
    ...(job.action === "resolve"
      ? {
          authorization: {
            attempt_id: row.attempt_id,
            gateway: row.gateway_code,
            payment_id: row.gateway_payment_id,
            auth_code: row.auth_code,
            reference_id: row.reference_id,
            processed_at: row.completed_at,
          },
        }
      : {
          reason: {
            code: job.reason === "canceled" ? "PROCESSING_ERROR" : "PAYMENT_EXPIRED",
            merchant_message: job.reason ?? "expired",
          },
        }),
    sent_at: nowIso(),
  };
  return { merchantId: row.merchant_id, paymentId: row.payment_id, state: row.state, body: JSON.stringify(body) };
}

/** An address the platform answered to resolve, where the customer continues: https, on the shop's own domain or myshopify.com. */
function redirectOf(answer: string | null, shopDomain: string) {
  if (!answer) return null;
  try {
    const value = (JSON.parse(answer) as { redirect_url?: unknown }).redirect_url;
    if (typeof value !== "string" || value.length > 2000) return null;
    return isShopAddress(value, shopDomain) ? value : null;
  } catch {
    return null;
  }
}

/** Attempts of a transaction that may still turn into a payment: waiting for their gateway, or recorded as failed while a capture may follow. */
const OPEN_ATTEMPT_STATES = ["pending", "failed", "canceled", "error"] as const;

/**
 * Asks the gateways about the transaction's open attempts, as the reconciler does, so that a
 * payment made at the last minute is found before the shop is told it failed. Answers whether an
 * attempt is still waiting for its gateway.
 */
export async function settleOpenAttempts(db: DB, transactionId: string, addresses: PlatformAddresses) {
  const open = await db
    .selectFrom("payment_attempts")
    .select("id")
    .where("transaction_id", "=", transactionId)
    .where("state", "in", OPEN_ATTEMPT_STATES)
    .execute();
  let waiting = false;
  for (const { id } of open) {
    const attempt = await findAttempt(db, id);
    if (!attempt) continue;
    const settled = await settleByInquiry(db, attempt, addresses, { late: attempt.state !== "pending" });
    if (settled.state === "pending") waiting = true;
  }
  return waiting;
}

/**
 * The expiry job, queued at hand-over for the session's end: a session nobody paid ends then,
 * through the one writer of states, whether or not anyone opens its page, so that the shop hears
 * reject. Its open attempts are asked about first: a payment made at the last minute wins.
 */
export async function expireSession(db: DB, job: { transactionId: string }, addresses: PlatformAddresses) {
  const transaction = await db
    .selectFrom("transactions")
    .select(["state", "expiration_time"])
    .where("id", "=", job.transactionId)
    .where("plugin", "=", "shopify")
    .executeTakeFirst();
  if (!transaction || !PAYABLE_STATES.includes(transaction.state)) return;
  if (transaction.expiration_time && Date.parse(transaction.expiration_time) > now().getTime()) {
    await enqueueJob(db, EXPIRE_JOB, job, { runAt: new Date(transaction.expiration_time), maxAttempts: 5 });
    return;
  }
  await settleOpenAttempts(db, job.transactionId, addresses);
  await expireTransaction(db, job.transactionId);
}

/**
 * Before the first try of a reject: its open attempts are asked about (an attempt still waiting for
 * its gateway delays the reject, REJECT_MAX_WAITS times), then the transaction is marked rejected
 * under its row's lock, if it is still unpaid. A payment that lands first is resolved instead
 * (this answers false); one that lands after is recorded, not resolved.
 */
async function readyToReject(db: DB, job: CallbackJob, addresses: PlatformAddresses) {
  const before = await db
    .selectFrom("transactions")
    .select(["state", "extra"])
    .where("id", "=", job.transactionId)
    .executeTakeFirst();
  if (!before) return false;
  if (!before.extra.includes('"rejected_at"')) {
    const waiting = await settleOpenAttempts(db, job.transactionId, addresses);
    if (waiting && (job.waits ?? 0) < REJECT_MAX_WAITS) {
      await queueCallback(db, { ...job, waits: (job.waits ?? 0) + 1 }, addMs(now(), REJECT_WAIT_MS));
      return false;
    }
  }
  return writeTransaction(db, async (trx) => {
    const note = await readShopNote(trx, job.transactionId);
    if (!note || (note.state !== "expired" && note.state !== "canceled")) return false;
    if (!note.shop.rejected_at) await noteShop(trx, job.transactionId, note, { rejected_at: nowIso() });
    return true;
  });
}

const triesOf = async (db: DB, job: CallbackJob) =>
  Number(
    (
      await db
        .selectFrom("shopify_callbacks")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("transaction_id", "=", job.transactionId)
        .where("action", "=", job.action)
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * The callback job: one try of telling the shop platform, signed, logged with its number. A
 * callback already delivered is not sent again; a failed try queues the next after the webhooks'
 * waits (RETRY_AFTER_MS), in the same database transaction as its log row, and the last failed
 * try is given up in the audit log, where the merchant reads it and can send it again.
 */
export async function deliverCallback(db: DB, job: CallbackJob, addresses: PlatformAddresses) {
  const delivered = await db
    .selectFrom("shopify_callbacks")
    .select("id")
    .where("transaction_id", "=", job.transactionId)
    .where("action", "=", job.action)
    .where("status", "=", "succeeded")
    .executeTakeFirst();
  if (delivered) return;
  if (job.action === "reject" && !(await readyToReject(db, job, addresses))) return;
  const made = await callbackBody(db, job);
  if (!made) return;
  const connection = await loadConnection(db, made.merchantId);
  const answer: ReceiverAnswer = connection
    ? await postToReceiver(
        connection.callback_url,
        made.body,
        {
          "Content-Type": "application/json",
          "User-Agent": "KuwaitPayments-Shopify/1",
          [SIGNATURE_HEADER]: signatureOf(connection.signing_secret, made.body),
          "X-Shop-Domain": connection.shop_domain,
          "Idempotency-Key": `${made.paymentId}:${job.action}`,
        },
        { keep: ANSWER_KEEP },
      )
    : { status: null, body: null, error: "The shop is not connected", durationMs: 0 };
  const succeeded = answer.error === null && answer.status !== null && answer.status >= 200 && answer.status < 300;
  await writeTransaction(db, async (trx) => {
    const number = (await triesOf(trx, job)) + 1;
    await trx
      .insertInto("shopify_callbacks")
      .values({
        merchant_id: made.merchantId,
        transaction_id: job.transactionId,
        action: job.action,
        attempt: number,
        status: succeeded ? "succeeded" : "failed",
        response_code: answer.status,
        error: answer.error,
        created_at: nowIso(),
      })
      .execute();
    const next =
      succeeded && job.action === "resolve" && connection ? redirectOf(answer.body, connection.shop_domain) : null;
    if (next)
      await trx
        .updateTable("shopify_payment_sessions")
        .set({ return_url: next })
        .where("transaction_id", "=", job.transactionId)
        .execute();
    if (succeeded || job.manual) return;
    if (number < CALLBACK_MAX_ATTEMPTS) {
      await queueCallback(
        trx,
        { transactionId: job.transactionId, action: job.action, reason: job.reason },
        addMs(now(), RETRY_AFTER_MS[Math.min(number - 1, RETRY_AFTER_MS.length - 1)]),
      );
    } else {
      await giveUpCallback(trx, job);
    }
  });
}

/** A callback given up after its last try (or its worker stopped on every take): the merchant reads it in the audit log. */
export async function giveUpCallback(db: DB, job: CallbackJob) {
  const session = await db
    .selectFrom("shopify_payment_sessions")
    .select(["merchant_id", "payment_id"])
    .where("transaction_id", "=", job.transactionId)
    .executeTakeFirst();
  if (!session) return;
  await recordAudit(db, {
    merchantId: session.merchant_id,
    actor: "system",
    action: "shopify_callback_given_up",
    params: { action: job.action, payment: session.payment_id },
    objectType: "transaction",
    objectId: job.transactionId,
  });
}

export type ResendOutcome = { ok: true } | { ok: false; error: string };

/**
 * Send again (a manager, on the settings page): one more try of a callback the shop has not
 * received, of the merchant's own session, when the transaction still says the same (a resolve of
 * a payment the shop was not told to reject, a reject of a transaction that ended unpaid). Audited.
 */
export async function resendCallback(
  db: DB,
  input: {
    merchantId: number;
    manager: { id: number; username: string };
    transactionId: string;
    action: string;
    ip?: string | null;
  },
): Promise<ResendOutcome> {
  if (input.action !== "resolve" && input.action !== "reject")
    return { ok: false, error: "shopify.errors.resend_unknown" };
  const action: CallbackAction = input.action;
  const row = await db
    .selectFrom("shopify_payment_sessions")
    .innerJoin("transactions", "transactions.id", "shopify_payment_sessions.transaction_id")
    .select(["shopify_payment_sessions.payment_id", "transactions.state", "transactions.extra"])
    .where("shopify_payment_sessions.merchant_id", "=", input.merchantId)
    .where("shopify_payment_sessions.transaction_id", "=", input.transactionId)
    .executeTakeFirst();
  if (!row) return { ok: false, error: "shopify.errors.resend_unknown" };
  const paid = row.state === "paid" || row.state === "authorized" || row.state === "refunded";
  const fits =
    action === "resolve"
      ? paid && !row.extra.includes('"paid_after_reject":true')
      : row.state === "expired" || row.state === "canceled";
  if (!fits) return { ok: false, error: "shopify.errors.resend_stale" };
  const delivered = await db
    .selectFrom("shopify_callbacks")
    .select("id")
    .where("transaction_id", "=", input.transactionId)
    .where("action", "=", action)
    .where("status", "=", "succeeded")
    .executeTakeFirst();
  if (delivered) return { ok: false, error: "shopify.errors.resend_delivered" };
  await writeTransaction(db, async (trx) => {
    await queueCallback(trx, {
      transactionId: input.transactionId,
      action,
      reason: action === "reject" ? row.state : undefined,
      manual: true,
    });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.manager,
      action: "shopify_callback_resent",
      params: { action, payment: row.payment_id },
      objectType: "transaction",
      objectId: input.transactionId,
      ip: input.ip ?? null,
    });
  });
  return { ok: true };
}

/** The latest tries, for the settings page, each saying whether its callback can be sent again (not delivered, the last try of it). */
export async function recentCallbacks(db: DB, merchantId: number, limit = 10) {
  const rows = await db
    .selectFrom("shopify_callbacks")
    .innerJoin(
      "shopify_payment_sessions",
      "shopify_payment_sessions.transaction_id",
      "shopify_callbacks.transaction_id",
    )
    .select([
      "shopify_callbacks.id",
      "shopify_callbacks.action",
      "shopify_callbacks.attempt",
      "shopify_callbacks.status",
      "shopify_callbacks.response_code",
      "shopify_callbacks.error",
      "shopify_callbacks.created_at",
      "shopify_payment_sessions.payment_id",
      "shopify_callbacks.transaction_id",
    ])
    .where("shopify_callbacks.merchant_id", "=", merchantId)
    .orderBy("shopify_callbacks.id", "desc")
    .limit(limit)
    .execute();
  const seen = new Set<string>();
  return rows.map((row) => {
    const key = `${row.transaction_id}:${row.action}`;
    const latest = !seen.has(key);
    seen.add(key);
    return { ...row, resendable: latest && row.status === "failed" };
  });
}

/** Payments that landed after the shop was told reject: the merchant refunds them (latest first). */
export async function paidAfterReject(db: DB, merchantId: number, limit = 20) {
  return db
    .selectFrom("audit_log")
    .innerJoin("transactions", "transactions.id", "audit_log.object_id")
    .innerJoin("shopify_payment_sessions", "shopify_payment_sessions.transaction_id", "transactions.id")
    .select([
      "transactions.id",
      "transactions.order_no",
      "transactions.amount",
      "transactions.currency_code",
      "transactions.state",
      "shopify_payment_sessions.payment_id",
      "audit_log.created_at",
    ])
    .where("audit_log.merchant_id", "=", merchantId)
    .where("audit_log.action", "=", "shopify_paid_after_reject")
    .where("transactions.merchant_id", "=", merchantId)
    .orderBy("audit_log.id", "desc")
    .limit(limit)
    .execute();
}
