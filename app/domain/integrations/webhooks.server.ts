import http from "node:http";
import https from "node:https";
import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { now, nowIso } from "~/lib/clock.server";
import { hmacSha256, randomToken } from "~/lib/crypto.server";
import { env } from "~/lib/env.server";
import { enqueueJob } from "~/lib/jobs.server";
import { webhookDeliveries } from "~/lib/metrics.server";
import { refuse, type Refusal, type TextParams } from "~/lib/outcome";
import { seal, unseal } from "~/lib/sealed.server";
import { checkWebhookUrl, guardedLookup, isPrivateHost, privateTargetsAllowed } from "./webhook-targets.server";

/**
 * Merchant webhooks: the platform tells a merchant's own systems what happened. An event is
 * written in the same database transaction as the change it reports; each endpoint that asked for
 * its type gets it from a job, so a receiver that is slow or down never slows a payment. Every try
 * is a row in the delivery log; a failed try is tried again later, waiting longer each time (over
 * about a day), until WEBHOOK_MAX_ATTEMPTS. Receivers check `Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">` with the endpoint's secret, and use `Idempotency-Key` (the event id) to act once.
 */

/** Event types merchants subscribe to. `webhook.test` is sent by "Send test event" only. */
export const WEBHOOK_EVENTS = [
  "payment.succeeded",
  "payment.authorized",
  "payment.failed",
  "refund.succeeded",
  "capture.succeeded",
  "void.succeeded",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number] | "webhook.test";

export const DELIVER_JOB = "webhook.deliver";
const TIMEOUT_MS = 10_000;
const RESPONSE_KEEP = 1024;
const MAX_ENDPOINTS = 20;

type Manager = { id: number; username: string; merchantId: number };

export type WebhookView = {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  created: string;
  created_by: string | null;
};

const iso = (value: unknown) => new Date(value as string).toISOString();

const endpointsOf = (db: DB, merchantId: number) =>
  db
    .selectFrom("webhook_endpoints")
    .leftJoin("users as creator", "creator.id", "webhook_endpoints.created_by")
    .select([
      "webhook_endpoints.id",
      "webhook_endpoints.url",
      "webhook_endpoints.events",
      "webhook_endpoints.enabled",
      "webhook_endpoints.created_at",
      "creator.username as creator",
    ])
    .where("webhook_endpoints.merchant_id", "=", merchantId)
    .where("webhook_endpoints.deleted_at", "is", null);

type EndpointRow = Awaited<ReturnType<ReturnType<typeof endpointsOf>["executeTakeFirstOrThrow"]>>;
const view = (row: EndpointRow): WebhookView => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events),
  enabled: Boolean(row.enabled),
  created: iso(row.created_at),
  created_by: row.creator ?? null,
});

export async function listWebhooks(db: DB, merchantId: number) {
  return (await endpointsOf(db, merchantId).orderBy("webhook_endpoints.id").execute()).map(view);
}

export async function findWebhook(db: DB, merchantId: number, id: number) {
  const row = await endpointsOf(db, merchantId).where("webhook_endpoints.id", "=", id).executeTakeFirst();
  return row && view(row);
}

/** Checks an endpoint's fields; the codes are translation keys. */
export async function checkWebhookInput(input: {
  url: unknown;
  events: unknown;
}): Promise<{ ok: true; url: string; events: string[] } | { ok: false; errors: Record<string, string[]> }> {
  const errors: Record<string, string[]> = {};
  const url = typeof input.url === "string" ? input.url.trim() : "";
  const urlError = url ? await checkWebhookUrl(url) : "admin.webhooks.errors.url";
  if (urlError) errors.url = [urlError];
  const events =
    Array.isArray(input.events) && input.events.every((event) => typeof event === "string")
      ? [...new Set(input.events as string[])]
      : null;
  if (!events || events.length === 0) errors.events = ["admin.webhooks.errors.events"];
  else if (!events.every((event) => (WEBHOOK_EVENTS as readonly string[]).includes(event)))
    errors.events = ["admin.webhooks.errors.event_unknown"];
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, url, events: WEBHOOK_EVENTS.filter((event) => events!.includes(event)) };
}

function audit(
  db: DB,
  manager: Manager,
  action: string,
  id: number,
  url: string,
  ip?: string | null,
  params: TextParams = {},
) {
  return recordAudit(db, {
    merchantId: manager.merchantId,
    actor: { id: manager.id, username: manager.username },
    action,
    params: { url, ...params },
    objectType: "webhook",
    objectId: id,
    ip: ip ?? null,
  });
}

/** A new endpoint and its signing secret, returned once (kept sealed; it is needed to sign). */
export async function createWebhook(
  db: DB,
  input: { manager: Manager; url: string; events: string[]; ip?: string | null },
): Promise<{ ok: true; id: number; secret: string } | Refusal> {
  const secret = `whsec_${randomToken(32)}`;
  return writeTransaction(db, async (trx) => {
    const count = await trx
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", input.manager.merchantId)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ENDPOINTS)
      return refuse("admin.webhooks.errors.too_many", { params: { count: MAX_ENDPOINTS } });
    const row = await trx
      .insertInto("webhook_endpoints")
      .values({
        merchant_id: input.manager.merchantId,
        url: input.url,
        events: JSON.stringify(input.events),
        secret: seal(secret),
        enabled: 1,
        created_by: input.manager.id,
        created_at: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await audit(trx, input.manager, "webhook_created", row.id, input.url, input.ip);
    return { ok: true as const, id: row.id, secret };
  });
}

/** Changes an endpoint's URL, events or whether it is on. */
export async function updateWebhook(
  db: DB,
  input: {
    manager: Manager;
    id: number;
    changes: { url?: string; events?: string[]; enabled?: boolean };
    ip?: string | null;
  },
): Promise<{ ok: true; webhook: WebhookView } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const current = await findWebhook(trx, input.manager.merchantId, input.id);
    if (!current) return refuse("admin.webhooks.errors.not_found");
    const set: { url?: string; events?: string; enabled?: number } = {};
    if (input.changes.url !== undefined && input.changes.url !== current.url) set.url = input.changes.url;
    if (input.changes.events !== undefined) set.events = JSON.stringify(input.changes.events);
    if (input.changes.enabled !== undefined && input.changes.enabled !== current.enabled)
      set.enabled = input.changes.enabled ? 1 : 0;
    if (Object.keys(set).length) {
      await trx.updateTable("webhook_endpoints").set(set).where("id", "=", current.id).execute();
      await audit(
        trx,
        input.manager,
        set.enabled === undefined ? "webhook_changed" : set.enabled ? "webhook_enabled" : "webhook_disabled",
        current.id,
        set.url ?? current.url,
        input.ip,
      );
    }
    return { ok: true as const, webhook: (await findWebhook(trx, input.manager.merchantId, input.id))! };
  });
}

/** Deletes an endpoint: nothing more is sent to it; its delivery log stays for the record. */
export async function deleteWebhook(
  db: DB,
  input: { manager: Manager; id: number; ip?: string | null },
): Promise<{ ok: true } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const current = await findWebhook(trx, input.manager.merchantId, input.id);
    if (!current) return refuse("admin.webhooks.errors.not_found");
    await trx
      .updateTable("webhook_endpoints")
      .set({ deleted_at: nowIso(), enabled: 0 })
      .where("id", "=", current.id)
      .execute();
    await audit(trx, input.manager, "webhook_deleted", current.id, current.url, input.ip);
    return { ok: true as const };
  });
}

function eventId() {
  return `evt_${randomToken(18)}`;
}

async function storeEvent(trx: DB, merchantId: number, type: WebhookEventType, data: Record<string, unknown>) {
  const id = eventId();
  const created = now();
  const body = JSON.stringify({ id, type, created: Math.floor(created.getTime() / 1000), data });
  await trx
    .insertInto("webhook_events")
    .values({ id, merchant_id: merchantId, type, body, created_at: created.toISOString() })
    .execute();
  return id;
}

/**
 * Records an event and queues its delivery to every endpoint of the merchant that asked for it.
 * Call it inside the transaction of the change it reports: no event without the change, no
 * change without its event. Nothing is written when no endpoint wants it.
 */
export async function emitWebhookEvent(
  trx: DB,
  merchantId: number,
  type: (typeof WEBHOOK_EVENTS)[number],
  data: Record<string, unknown>,
) {
  const endpoints = await trx
    .selectFrom("webhook_endpoints")
    .select(["id", "events"])
    .where("merchant_id", "=", merchantId)
    .where("enabled", "=", 1)
    .where("deleted_at", "is", null)
    .execute();
  const wanting = endpoints.filter((endpoint) => (JSON.parse(endpoint.events) as string[]).includes(type));
  if (!wanting.length) return;
  const id = await storeEvent(trx, merchantId, type, data);
  for (const endpoint of wanting) await queueTry(trx, { eventId: id, endpointId: endpoint.id });
}

/** "Send test event": a `webhook.test` event to this endpoint alone, tried once. */
export async function sendTestEvent(
  db: DB,
  input: { manager: Manager; id: number; ip?: string | null },
): Promise<{ ok: true; eventId: string } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const current = await findWebhook(trx, input.manager.merchantId, input.id);
    if (!current) return refuse("admin.webhooks.errors.not_found");
    if (!current.enabled) return refuse("admin.webhooks.errors.disabled");
    const id = await storeEvent(trx, input.manager.merchantId, "webhook.test", {
      message: "A test event sent from the administration panel.",
      endpoint_id: current.id,
      sent_by: input.manager.username,
    });
    await queueTry(trx, { eventId: id, endpointId: current.id, manual: true });
    await audit(trx, input.manager, "webhook_test_sent", current.id, current.url, input.ip);
    return { ok: true as const, eventId: id };
  });
}

/** Sends an event again to an endpoint, once, as a new numbered try in its log. */
export async function redeliver(
  db: DB,
  input: { manager: Manager; endpointId: number; deliveryId: number; ip?: string | null },
): Promise<{ ok: true } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const delivery = await trx
      .selectFrom("webhook_deliveries")
      .innerJoin("webhook_events", "webhook_events.id", "webhook_deliveries.event_id")
      .select(["webhook_deliveries.event_id", "webhook_events.type"])
      .where("webhook_deliveries.id", "=", input.deliveryId)
      .where("webhook_deliveries.endpoint_id", "=", input.endpointId)
      .where("webhook_deliveries.merchant_id", "=", input.manager.merchantId)
      .executeTakeFirst();
    const endpoint = await findWebhook(trx, input.manager.merchantId, input.endpointId);
    if (!delivery || !endpoint) return refuse("admin.webhooks.errors.not_found");
    if (!endpoint.enabled) return refuse("admin.webhooks.errors.disabled");
    await queueTry(trx, { eventId: delivery.event_id, endpointId: input.endpointId, manual: true });
    await audit(trx, input.manager, "webhook_redelivered", endpoint.id, endpoint.url, input.ip, {
      event: delivery.type,
    });
    return { ok: true as const };
  });
}

export type DeliveryView = {
  id: number;
  event_id: string;
  event: string;
  attempt: number;
  status: string;
  response_code: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created: string;
};

export async function listDeliveries(
  db: DB,
  merchantId: number,
  endpointId: number,
  limit = 100,
): Promise<DeliveryView[]> {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .innerJoin("webhook_events", "webhook_events.id", "webhook_deliveries.event_id")
    .select([
      "webhook_deliveries.id",
      "webhook_deliveries.event_id",
      "webhook_events.type",
      "webhook_deliveries.attempt",
      "webhook_deliveries.status",
      "webhook_deliveries.response_code",
      "webhook_deliveries.response_body",
      "webhook_deliveries.error",
      "webhook_deliveries.duration_ms",
      "webhook_deliveries.created_at",
    ])
    .where("webhook_deliveries.merchant_id", "=", merchantId)
    .where("webhook_deliveries.endpoint_id", "=", endpointId)
    .orderBy("webhook_deliveries.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event: row.type,
    attempt: row.attempt,
    status: row.status,
    response_code: row.response_code,
    response_body: row.response_body,
    error: row.error,
    duration_ms: row.duration_ms,
    created: iso(row.created_at),
  }));
}

/** The Signature header of a body sent at unix time `t`. */
export function signatureHeader(secret: string, t: number, body: string) {
  return `t=${t},v1=${hmacSha256(secret, `${t}.${body}`)}`;
}

export type ReceiverAnswer = { status: number | null; body: string | null; error: string | null; durationMs: number };
export type WebhookAnswer = ReceiverAnswer;
type Answer = ReceiverAnswer;

/**
 * Posts one event body to a merchant's address, signed with `secret` as every endpoint's events are
 * (the same headers, the same guard against private addresses, the same deadline): for the
 * addresses a merchant gives per payment (a checkout session's webhook_url). Never throws.
 */
export function postSignedEvent(url: string, secret: string, eventId: string, body: string): Promise<WebhookAnswer> {
  const t = Math.floor(now().getTime() / 1000);
  return postToReceiver(url, body, {
    "Content-Type": "application/json",
    "User-Agent": "KuwaitPayments-Webhooks/1",
    Signature: signatureHeader(secret, t, body),
    "Idempotency-Key": eventId,
  });
}

/** How long after the `number`th failed try of an event the next one is made. */
export function retryDelayMs(number: number) {
  return RETRY_AFTER_MS[Math.min(number - 1, RETRY_AFTER_MS.length - 1)];
}

/**
 * Posts a body to a merchant's receiver (webhooks, a shop platform's callbacks) with the
 * protections every outgoing call needs: no private or loopback address (unless allowed), one
 * deadline for the whole exchange, and the answer read only as far as `keep` bytes (1 KB unless
 * told). Never throws: a failure is the answer's `error`.
 */
export function postToReceiver(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { keep?: number } = {},
): Promise<Answer> {
  const keep = options.keep ?? RESPONSE_KEEP;
  const started = performance.now();
  const target = new URL(url);
  if (!privateTargetsAllowed() && isPrivateHost(target.hostname)) {
    return Promise.resolve({
      status: null,
      body: null,
      error: "The address is private or loopback; webhooks may not reach it.",
      durationMs: 0,
    });
  }
  const client = target.protocol === "https:" ? https : http;
  const late = `No complete answer within ${TIMEOUT_MS / 1000} seconds`;
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const done = (answer: Omit<Answer, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...answer, durationMs: Math.round(performance.now() - started) });
    };
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup(),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = () =>
          done({
            status: response.statusCode ?? null,
            body: Buffer.concat(chunks).subarray(0, keep).toString("utf8"),
            error: null,
          });
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          // The first `keep` bytes are all that is kept: the rest is not waited for.
          if (kept >= keep) {
            finish();
            response.destroy();
          }
        });
        response.on("end", finish);
        const cutOff = (error?: Error) =>
          done({
            status: response.statusCode ?? null,
            body: null,
            error: timedOut ? late : (error?.message ?? "The answer was cut off"),
          });
        response.on("error", cutOff);
        response.on("aborted", () => cutOff());
      },
    );
    // One deadline for the whole exchange: a receiver that answers a byte at a time is cut off too.
    const deadline = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(late));
    }, TIMEOUT_MS);
    request.on("error", (error) => done({ status: null, body: null, error: error.message.slice(0, 500) }));
    request.end(body);
  });
}

/** How long after a failed try the next one is made: the tries of an event span about a day. */
export const RETRY_AFTER_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  12 * 3_600_000,
];

async function reachedEndpoint(db: DB, endpointId: number, eventId: string) {
  const delivered = await db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("endpoint_id", "=", endpointId)
    .where("event_id", "=", eventId)
    .where("status", "=", "succeeded")
    .limit(1)
    .executeTakeFirst();
  return delivered !== undefined;
}

/** The job of one try; `manual` (Redeliver, Send test event): that one try only. */
type DeliveryJob = { eventId: string; endpointId: number; manual?: boolean };

/** Queues a try of an event to an endpoint; the job itself is taken again only if its worker stopped during it. */
function queueTry(db: DB, job: DeliveryJob, runAt?: Date) {
  return enqueueJob(db, DELIVER_JOB, job, { runAt, maxAttempts: 3 });
}

/**
 * The delivery job: one try of one event to one endpoint, recorded in the log with its number.
 * A failed try queues the next (RETRY_AFTER_MS) in the same database transaction as its log row,
 * until WEBHOOK_MAX_ATTEMPTS; an endpoint deleted or turned off since is not called, and the log
 * says so.
 */
export async function deliverWebhook(db: DB, payload: DeliveryJob) {
  const endpoint = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "merchant_id", "url", "secret", "enabled", "deleted_at"])
    .where("id", "=", payload.endpointId)
    .executeTakeFirst();
  if (!endpoint) return;
  const event = await db
    .selectFrom("webhook_events")
    .select(["id", "merchant_id", "body"])
    .where("id", "=", payload.eventId)
    .executeTakeFirst();
  if (!event || event.merchant_id !== endpoint.merchant_id) return;
  const attempt = async (trx: DB) =>
    Number(
      (
        await trx
          .selectFrom("webhook_deliveries")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("endpoint_id", "=", endpoint.id)
          .where("event_id", "=", event.id)
          .executeTakeFirstOrThrow()
      ).n,
    ) + 1;
  const record = async (
    trx: DB,
    number: number,
    row: {
      status: "succeeded" | "failed" | "skipped";
      response_code: number | null;
      response_body: string | null;
      error: string | null;
      duration_ms: number;
    },
  ) => {
    await trx
      .insertInto("webhook_deliveries")
      .values({
        merchant_id: endpoint.merchant_id,
        endpoint_id: endpoint.id,
        event_id: event.id,
        attempt: number,
        created_at: nowIso(),
        ...row,
      })
      .execute();
    webhookDeliveries.inc({ outcome: row.status });
  };
  if (endpoint.deleted_at || !endpoint.enabled) {
    await record(db, await attempt(db), {
      status: "skipped",
      response_code: null,
      response_body: null,
      error: endpoint.deleted_at ? "The endpoint was deleted" : "The endpoint is turned off",
      duration_ms: 0,
    });
    return;
  }
  // An event that has reached the endpoint (a Redeliver in between, say) ends its scheduled retries there.
  if (!payload.manual && (await reachedEndpoint(db, endpoint.id, event.id))) return;
  const t = Math.floor(now().getTime() / 1000);
  const answer = await postToReceiver(endpoint.url, event.body, {
    "Content-Type": "application/json",
    "User-Agent": "KuwaitPayments-Webhooks/1",
    Signature: signatureHeader(unseal(endpoint.secret), t, event.body),
    "Idempotency-Key": event.id,
  });
  // A 2xx answer received whole (or its first 1 KB): a cut-off answer is not a delivery.
  const succeeded = answer.error === null && answer.status !== null && answer.status >= 200 && answer.status < 300;
  await writeTransaction(db, async (trx) => {
    const number = await attempt(trx);
    await record(trx, number, {
      status: succeeded ? "succeeded" : "failed",
      response_code: answer.status,
      response_body: answer.body,
      error: answer.error,
      duration_ms: answer.durationMs,
    });
    if (!succeeded && !payload.manual && number < env().WEBHOOK_MAX_ATTEMPTS) {
      await queueTry(
        trx,
        { eventId: event.id, endpointId: endpoint.id },
        new Date(now().getTime() + RETRY_AFTER_MS[Math.min(number - 1, RETRY_AFTER_MS.length - 1)]),
      );
    }
  });
}
