import { log } from "~/lib/log.server";
import type { Kysely } from "kysely";
import type { DB } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { sandboxEnabled } from "~/lib/env.server";
import { enqueueJob } from "~/lib/jobs.server";
import { isPlatformNotifyAddress, platformServerAddress } from "./return-addresses.server";

export const MPGS_NOTIFY_JOB = "sandbox_mpgs_notify";
const DELIVERY_ATTEMPTS = 8;

type NotificationJob = { merchantId: string; notifyUrl: string; body: string };

/**
 * Queues the webhook of a transaction (the RETRIEVE_TRANSACTION document at this moment) to the
 * order's notificationUrl; call it inside the transaction that changed the order.
 */
export async function queueMpgsNotification(
  trx: Kysely<Database>,
  merchantId: string,
  notifyUrl: string | null,
  document: unknown,
) {
  if (!notifyUrl) return;
  const job: NotificationJob = { merchantId, notifyUrl, body: JSON.stringify(document) };
  await enqueueJob(trx, MPGS_NOTIFY_JOB, job, { maxAttempts: DELIVERY_ATTEMPTS });
}

/**
 * POSTs the webhook with the merchant's secret in X-Notification-Secret; anything but a 2xx throws,
 * so the job is retried with backoff, as the gateway retries. Checked again at delivery: with the
 * sandboxes off, or an address that is not the platform's own notification route, nothing is sent
 * (decision 0014).
 */
export async function deliverMpgsNotification(db: DB, job: NotificationJob) {
  if (!sandboxEnabled() || !isPlatformNotifyAddress(job.notifyUrl)) {
    log.warn("MPGS sandbox notification dropped: the sandboxes are off or the address is not the platform's");
    return;
  }
  const merchant = await db
    .selectFrom("sandbox_mpgs_merchants")
    .select("notification_secret")
    .where("merchant_id", "=", job.merchantId)
    .executeTakeFirst();
  if (!merchant) throw new Error("The MPGS sandbox merchant of this notification no longer exists");
  // This installation's own route, reached at its internal address as KNET's sandbox reaches responseURL.
  const response = await fetch(platformServerAddress(job.notifyUrl, "mpgs/notify") ?? job.notifyUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Notification-Secret": merchant.notification_secret },
    body: job.body,
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`Notification answered HTTP ${response.status}`);
}
