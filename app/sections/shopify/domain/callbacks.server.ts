import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { guardedLookup, isPrivateAddress, privateTargetsAllowed } from "~/domain/integrations/webhook-targets.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { nowIso } from "~/lib/clock.server";
import { enqueueJob } from "~/lib/jobs.server";
import { toDecimalString } from "~/lib/money";
import { loadConnection } from "./connection.server";

export const CALLBACK_JOB = "shopify.callback";
/** Tries of one callback: the worker waits twice as long after each failure, about seventeen minutes in all. */
export const CALLBACK_MAX_ATTEMPTS = 10;
/** The header that carries the signature: base64 of HMAC-SHA256 of the raw body with the connection's secret. */
export const SIGNATURE_HEADER = "X-Shopify-Hmac-SHA256";

const TIMEOUT_MS = 10_000;

export type CallbackAction = "resolve" | "reject";
type CallbackJob = { transactionId: string; action: CallbackAction; reason?: string };

/** The signature of a callback's body, as the shop platform checks it. */
export function signatureOf(secret: string, body: string) {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

/**
 * What the section does when one of its transactions changes state, inside the same database
 * transaction: a payment (paid or authorized) queues the signed resolve; a transaction that ends
 * unpaid (expired, canceled) queues the reject. A failed attempt does not: the customer may still
 * pay with another method until the session expires. Never throws for a payment.
 */
export async function onShopifyTransition(trx: DB, event: TransitionEvent) {
  const paid = event.cause.kind === "payment" && (event.to === "paid" || event.to === "authorized");
  const ended = (event.to === "expired" || event.to === "canceled") && event.cause.kind !== "payment";
  if (!paid && !ended) return;
  const session = await trx.selectFrom("shopify_payment_sessions").select("id").where("transaction_id", "=", event.transaction.id).executeTakeFirst();
  if (!session) return;
  const job: CallbackJob = paid ? { transactionId: event.transaction.id, action: "resolve" } : { transactionId: event.transaction.id, action: "reject", reason: event.to };
  await enqueueJob(trx, CALLBACK_JOB, job, { maxAttempts: CALLBACK_MAX_ATTEMPTS });
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
      : { reason: { code: job.reason === "canceled" ? "PROCESSING_ERROR" : "PAYMENT_EXPIRED", merchant_message: job.reason ?? "expired" } }),
    sent_at: nowIso(),
  };
  return { merchantId: row.merchant_id, paymentId: row.payment_id, body: JSON.stringify(body) };
}

type Answer = { status: number | null; body: string; error: string | null };

function post(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !privateTargetsAllowed() && isPrivateAddress(host)) return Promise.resolve({ status: null, body: "", error: "The address is private or loopback" });
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(target, { method: "POST", headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, lookup: guardedLookup(), timeout: TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on("data", (chunk: Buffer) => {
        if (kept < 4096) chunks.push(chunk);
        kept += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString("utf8").slice(0, 4096), error: null }));
      response.on("error", (error) => resolve({ status: response.statusCode ?? null, body: "", error: error.message }));
    });
    request.on("timeout", () => request.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} seconds`)));
    request.on("error", (error) => resolve({ status: null, body: "", error: error.message.slice(0, 500) }));
    request.end(body);
  });
}

/** An address the platform answered to resolve, where the customer continues: http(s) only. */
function redirectOf(answer: string) {
  try {
    const value = (JSON.parse(answer) as { redirect_url?: unknown }).redirect_url;
    if (typeof value !== "string" || value.length > 2000) return null;
    return /^https?:$/.test(new URL(value).protocol) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The callback job: one try of telling the shop platform, signed, logged with its number. A
 * callback already delivered is not sent again (a job taken again after its worker stopped); a
 * failed try throws, and the worker tries again later until CALLBACK_MAX_ATTEMPTS.
 */
export async function deliverCallback(db: DB, job: CallbackJob) {
  const delivered = await db
    .selectFrom("shopify_callbacks")
    .select("id")
    .where("transaction_id", "=", job.transactionId)
    .where("action", "=", job.action)
    .where("status", "=", "succeeded")
    .executeTakeFirst();
  if (delivered) return;
  const made = await callbackBody(db, job);
  if (!made) return;
  const connection = await loadConnection(db, made.merchantId);
  const tries = Number(
    (await db.selectFrom("shopify_callbacks").select((eb) => eb.fn.countAll<number>().as("n")).where("transaction_id", "=", job.transactionId).where("action", "=", job.action).executeTakeFirstOrThrow()).n,
  );
  const answer: Answer = connection
    ? await post(connection.callback_url, made.body, {
        "Content-Type": "application/json",
        "User-Agent": "KuwaitPayments-Shopify/1",
        [SIGNATURE_HEADER]: signatureOf(connection.signing_secret, made.body),
        "X-Shop-Domain": connection.shop_domain,
        "Idempotency-Key": `${made.paymentId}:${job.action}`,
      })
    : { status: null, body: "", error: "The shop is not connected" };
  const succeeded = answer.error === null && answer.status !== null && answer.status >= 200 && answer.status < 300;
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto("shopify_callbacks")
      .values({ merchant_id: made.merchantId, transaction_id: job.transactionId, action: job.action, attempt: tries + 1, status: succeeded ? "succeeded" : "failed", response_code: answer.status, error: answer.error, created_at: nowIso() })
      .execute();
    const next = succeeded && job.action === "resolve" ? redirectOf(answer.body) : null;
    if (next) await trx.updateTable("shopify_payment_sessions").set({ return_url: next }).where("transaction_id", "=", job.transactionId).execute();
  });
  if (!succeeded) throw new Error(answer.error ?? `The shop platform answered ${answer.status}`);
}

/** A callback given up after its last try: the merchant reads it in the audit log. */
export async function giveUpCallback(db: DB, job: CallbackJob) {
  const session = await db.selectFrom("shopify_payment_sessions").select(["merchant_id", "payment_id"]).where("transaction_id", "=", job.transactionId).executeTakeFirst();
  if (!session) return;
  await recordAudit(db, { merchantId: session.merchant_id, actor: "system", action: "shopify_callback_given_up", params: { action: job.action, payment: session.payment_id }, objectType: "transaction", objectId: job.transactionId });
}

/** The latest tries, for the settings page. */
export async function recentCallbacks(db: DB, merchantId: number, limit = 10) {
  return db
    .selectFrom("shopify_callbacks")
    .innerJoin("shopify_payment_sessions", "shopify_payment_sessions.transaction_id", "shopify_callbacks.transaction_id")
    .select(["shopify_callbacks.id", "shopify_callbacks.action", "shopify_callbacks.attempt", "shopify_callbacks.status", "shopify_callbacks.response_code", "shopify_callbacks.error", "shopify_callbacks.created_at", "shopify_payment_sessions.payment_id", "shopify_callbacks.transaction_id"])
    .where("shopify_callbacks.merchant_id", "=", merchantId)
    .orderBy("shopify_callbacks.id", "desc")
    .limit(limit)
    .execute();
}
