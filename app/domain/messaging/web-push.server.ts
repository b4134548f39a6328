import http from "node:http";
import https from "node:https";
import webpush from "web-push";
import type { DB } from "~/db/database.server";
import { checkWebhookUrl, guardedLookup } from "~/domain/integrations/webhook-targets.server";
import { nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { texts } from "~/lib/texts.server";

/**
 * Web Push (decision 0033): with the user's consent their browser subscribes, and the platform
 * sends the notices a user would see in an open tab to the browser's push service, encrypted for
 * that browser (RFC 8291) and signed with this installation's VAPID key (RFC 8292). The service
 * worker shows one only when no tab of the dashboard is in view.
 */
export const PUSH_JOB = "send_push_notification";

type VapidKeys = { publicKey: string; privateKey: string };
let cachedKeys: VapidKeys | undefined;

/** The installation's VAPID keys, made once and kept in the database. */
export async function vapidKeys(db: DB): Promise<VapidKeys> {
  if (cachedKeys) return cachedKeys;
  const read = () => db.selectFrom("app_settings").select("value").where("key", "=", "vapid_keys").executeTakeFirst();
  let stored = await read();
  if (!stored) {
    await db
      .insertInto("app_settings")
      .values({ key: "vapid_keys", value: JSON.stringify(webpush.generateVAPIDKeys()) })
      .onConflict((conflict) => conflict.column("key").doNothing())
      .execute();
    stored = await read();
  }
  return (cachedKeys = JSON.parse(stored!.value) as VapidKeys);
}

export type PushRegistration = { endpoint: string; p256dh: string; auth: string };

const KEY = /^[A-Za-z0-9_-]{16,200}={0,2}$/;

/**
 * A browser's subscription as PushSubscription.toJSON() gives it ({endpoint, keys: {p256dh, auth}}),
 * as an object or its JSON text; the error is a translation key. Its endpoint is a public address,
 * as a webhook's is: an address inside the network is refused.
 */
export async function readPushRegistration(
  value: unknown,
): Promise<{ ok: true; registration: PushRegistration } | { ok: false; error: string }> {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { ok: false, error: "push.errors.registration" };
    }
  }
  const candidate = parsed as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  const endpoint = candidate?.endpoint;
  const p256dh = candidate?.keys?.p256dh;
  const auth = candidate?.keys?.auth;
  if (
    typeof endpoint !== "string" ||
    typeof p256dh !== "string" ||
    typeof auth !== "string" ||
    !KEY.test(p256dh) ||
    !KEY.test(auth)
  ) {
    return { ok: false, error: "push.errors.registration" };
  }
  if ((await checkWebhookUrl(endpoint)) !== null) return { ok: false, error: "push.errors.endpoint" };
  return { ok: true, registration: { endpoint, p256dh, auth } };
}

/** Stores (or moves to this user and sign-in) a browser's subscription. */
export async function savePushSubscription(
  db: DB,
  user: { id: number; merchantId: number },
  registration: PushRegistration,
  lang: Language,
  sessionId: string,
) {
  const row = {
    merchant_id: user.merchantId,
    user_id: user.id,
    endpoint: registration.endpoint,
    p256dh: registration.p256dh,
    auth: registration.auth,
    lang,
    session_id: sessionId || null,
    created_at: nowIso(),
  };
  await db
    .insertInto("push_subscriptions")
    .values(row)
    .onConflict((conflict) =>
      conflict.column("endpoint").doUpdateSet({
        merchant_id: row.merchant_id,
        user_id: row.user_id,
        p256dh: row.p256dh,
        auth: row.auth,
        lang: row.lang,
        session_id: row.session_id,
      }),
    )
    .execute();
}

/** Forgets a browser's subscription (the user turned notices off there); only the user's own. */
export async function removePushSubscription(db: DB, user: { id: number }, endpoint: string) {
  await db.deleteFrom("push_subscriptions").where("user_id", "=", user.id).where("endpoint", "=", endpoint).execute();
}

export async function hasPushSubscription(db: DB, userId: number) {
  return Boolean(
    await db.selectFrom("push_subscriptions").select("id").where("user_id", "=", userId).limit(1).executeTakeFirst(),
  );
}

type PushPayload = { subscriptionId: number; kind: string; link: string | null; tag: string };

/** Queues a push to each subscription of the recipients, in the caller's transaction: one job a browser, so a retry repeats none. */
export async function queuePush(
  db: DB,
  enqueue: (type: string, payload: PushPayload) => Promise<void>,
  notice: { userIds: readonly number[]; kind: string; link: string | null; tag: string },
) {
  if (notice.userIds.length === 0) return;
  const subscriptions = await db
    .selectFrom("push_subscriptions")
    .select("id")
    .where("user_id", "in", [...notice.userIds])
    .execute();
  for (const { id } of subscriptions)
    await enqueue(PUSH_JOB, { subscriptionId: id, kind: notice.kind, link: notice.link, tag: notice.tag });
}

/** Who the push services may contact about this installation's pushes: its address. */
function vapidSubject() {
  const base = env().BASE_URL;
  return base && base.startsWith("https://") ? new URL(base).origin : "mailto:support@localhost.invalid";
}

/** A push service's answer: 404 and 410 say the subscription is gone for good. */
type Delivery = { status: number };

function post(endpoint: string, headers: Record<string, string | number>, body: Buffer): Promise<Delivery> {
  const url = new URL(endpoint);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: "POST", headers, lookup: guardedLookup(), timeout: 10_000 },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("push service timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * The job: the notice, in the browser's language, to one subscription. A subscription the push
 * service no longer knows is forgotten; another failure is retried.
 */
export async function sendPushNotification(db: DB, payload: PushPayload) {
  const subscription = await db
    .selectFrom("push_subscriptions")
    .selectAll()
    .where("id", "=", payload.subscriptionId)
    .executeTakeFirst();
  if (!subscription) return;
  const keys = await vapidKeys(db);
  const lang: Language = isLanguage(subscription.lang) ? subscription.lang : "en";
  const message = {
    title: texts().line(`notifications.${payload.kind}`, {}, lang),
    url: payload.link?.replace(/^\/(en|ar)(?=\/)/, `/${lang}`) ?? `/${lang}`,
    tag: payload.tag,
    lang,
    dir: lang === "ar" ? "rtl" : "ltr",
  };
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(message),
    {
      vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 3600,
      urgency: "high",
    },
  );
  const delivery = await post(
    details.endpoint,
    details.headers as Record<string, string | number>,
    details.body as Buffer,
  );
  if (delivery.status === 404 || delivery.status === 410) {
    await db.deleteFrom("push_subscriptions").where("id", "=", subscription.id).execute();
    return;
  }
  if (delivery.status < 200 || delivery.status > 299)
    throw new Error(`push service ${new URL(subscription.endpoint).host} answered ${delivery.status}`);
}
