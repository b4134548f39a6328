import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { postSignedEvent, retryDelayMs } from "~/domain/integrations/webhooks.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";
import { now, nowIso } from "~/lib/clock.server";
import { randomToken } from "~/lib/crypto.server";
import { env } from "~/lib/env.server";
import { enqueueJob } from "~/lib/jobs.server";
import { toDecimalString } from "~/lib/money";
import { seal, unseal } from "~/lib/sealed.server";
import { findSessionOfTransaction, sessionState } from "./sessions.server";

/**
 * What a checkout session's `webhook_url` is told: the session paid, authorized, failed, refunded,
 * expired or canceled. The event is written in the database transaction of the change it tells and
 * posted by a job, signed as the merchant's webhook endpoints are (`Signature: t=<unix>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">`) but with the merchant's checkout signing secret (decision 0028);
 * each try is logged and a failed one is tried again later, as endpoints' are.
 */
export const SESSION_WEBHOOK_JOB = "checkout_session_webhook";

export type SessionEventType =
  | "checkout_session.paid"
  | "checkout_session.authorized"
  | "checkout_session.failed"
  | "checkout_session.refunded"
  | "checkout_session.expired"
  | "checkout_session.canceled";

function eventTypeOf(event: TransitionEvent): SessionEventType | null {
  const { cause, to } = event;
  if (cause.kind === "payment")
    return to === "authorized" ? "checkout_session.authorized" : to === "paid" ? "checkout_session.paid" : null;
  if (cause.kind === "capture" && to === "paid") return "checkout_session.paid";
  if (cause.kind === "attempt_failed") return "checkout_session.failed";
  if (cause.kind === "refund") return "checkout_session.refunded";
  if (cause.kind === "expired") return "checkout_session.expired";
  if (cause.kind === "canceled" || cause.kind === "void") return "checkout_session.canceled";
  return null;
}

/** The merchant's checkout signing secret, made the first time it is needed. */
export async function signingSecret(db: DB, merchantId: number): Promise<string> {
  const found = await db
    .selectFrom("checkout_signing_secrets")
    .select("secret")
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  if (found) return unseal(found.secret);
  await db
    .insertInto("checkout_signing_secrets")
    .values({ merchant_id: merchantId, secret: seal(`whsec_${randomToken(32)}`), created_at: nowIso() })
    .onConflict((conflict) => conflict.column("merchant_id").doNothing())
    .execute();
  const made = await db
    .selectFrom("checkout_signing_secrets")
    .select("secret")
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return unseal(made.secret);
}

/** A new signing secret: events posted from now on are signed with it; the old one signs nothing more. */
export async function rotateSigningSecret(db: DB, manager: { id: number; username: string; merchantId: number }) {
  const secret = `whsec_${randomToken(32)}`;
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto("checkout_signing_secrets")
      .values({ merchant_id: manager.merchantId, secret: seal(secret), created_at: nowIso() })
      .onConflict((conflict) =>
        conflict.column("merchant_id").doUpdateSet({ secret: seal(secret), created_at: nowIso() }),
      )
      .execute();
    await recordAudit(trx, {
      merchantId: manager.merchantId,
      actor: { id: manager.id, username: manager.username },
      action: "checkout_secret_rotated",
      params: {},
      objectType: "merchant",
      objectId: manager.merchantId,
    });
  });
  return secret;
}

/**
 * The session section's watch on every transaction (contract `watchTransitions`): a change of a
 * session's transaction that its merchant's server wants to hear is written as an event and its
 * delivery queued, in the same database transaction.
 */
export async function tellSessionWebhook(trx: DB, event: TransitionEvent) {
  const type = eventTypeOf(event);
  if (!type) return;
  const session = await findSessionOfTransaction(trx, event.transaction.id);
  if (!session?.webhook_url) return;
  const id = `evt_${randomToken(18)}`;
  const created = now();
  const money = (minor: number) => toDecimalString(minor, session.currency_code);
  const body = JSON.stringify({
    id,
    type,
    created: Math.floor(created.getTime() / 1000),
    data: {
      session_id: session.id,
      order_no: session.order_no,
      type: session.type,
      state: sessionState(session),
      amount: money(session.amount),
      paid_amount: money(session.paid_amount),
      refunded_amount: money(session.refunded_amount),
      currency_code: session.currency_code,
      attempt_id: "attemptId" in event.cause ? event.cause.attemptId : null,
    },
  });
  await trx
    .insertInto("checkout_session_events")
    .values({
      id,
      merchant_id: session.merchant_id,
      session_id: session.id,
      type,
      body,
      created_at: created.toISOString(),
    })
    .execute();
  await enqueueJob(trx, SESSION_WEBHOOK_JOB, { eventId: id }, { maxAttempts: 3 });
}

/**
 * One try of posting a session's event to the session's webhook_url (as it is now: a PATCH may
 * have moved it), logged; a failed try queues the next in the same database transaction as its log
 * row, until WEBHOOK_MAX_ATTEMPTS.
 */
export async function deliverSessionEvent(db: DB, payload: { eventId: string }) {
  const event = await db
    .selectFrom("checkout_session_events")
    .innerJoin("checkout_sessions", "checkout_sessions.id", "checkout_session_events.session_id")
    .select([
      "checkout_session_events.id",
      "checkout_session_events.merchant_id",
      "checkout_session_events.body",
      "checkout_sessions.webhook_url",
    ])
    .where("checkout_session_events.id", "=", payload.eventId)
    .executeTakeFirst();
  if (!event?.webhook_url) return;
  const answer = await postSignedEvent(
    event.webhook_url,
    await signingSecret(db, event.merchant_id),
    event.id,
    event.body,
  );
  const succeeded = answer.error === null && answer.status !== null && answer.status >= 200 && answer.status < 300;
  await writeTransaction(db, async (trx) => {
    const tried = await trx
      .selectFrom("checkout_session_deliveries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("event_id", "=", event.id)
      .executeTakeFirstOrThrow();
    const number = Number(tried.n) + 1;
    await trx
      .insertInto("checkout_session_deliveries")
      .values({
        merchant_id: event.merchant_id,
        event_id: event.id,
        attempt: number,
        status: succeeded ? "succeeded" : "failed",
        response_code: answer.status,
        response_body: answer.body,
        error: answer.error,
        duration_ms: answer.durationMs,
        created_at: nowIso(),
      })
      .execute();
    if (!succeeded && number < env().WEBHOOK_MAX_ATTEMPTS) {
      await enqueueJob(
        trx,
        SESSION_WEBHOOK_JOB,
        { eventId: event.id },
        { runAt: new Date(now().getTime() + retryDelayMs(number)), maxAttempts: 3 },
      );
    }
  });
}

/** The last delivery of each session's latest event, for the sessions list: delivered, failing, or none. */
export async function lastDeliveries(db: DB, merchantId: number, sessionIds: readonly string[]) {
  if (!sessionIds.length)
    return new Map<string, { type: string; status: "succeeded" | "failed" | "queued"; code: number | null }>();
  const events = await db
    .selectFrom("checkout_session_events")
    .leftJoin("checkout_session_deliveries", "checkout_session_deliveries.event_id", "checkout_session_events.id")
    .select([
      "checkout_session_events.session_id",
      "checkout_session_events.type",
      "checkout_session_events.created_at",
      "checkout_session_deliveries.attempt",
      "checkout_session_deliveries.status",
      "checkout_session_deliveries.response_code",
    ])
    .where("checkout_session_events.merchant_id", "=", merchantId)
    .where("checkout_session_events.session_id", "in", sessionIds)
    .orderBy("checkout_session_events.created_at")
    .orderBy("checkout_session_deliveries.attempt")
    .execute();
  const last = new Map<string, { type: string; status: "succeeded" | "failed" | "queued"; code: number | null }>();
  for (const row of events)
    last.set(row.session_id, { type: row.type, status: row.status ?? "queued", code: row.response_code ?? null });
  return last;
}
