import type { Kysely, Selectable } from "kysely";
import type { DB } from "~/db/database.server";
import type { Database, SandboxCardPaymentTable } from "~/db/schema";
import { CARD_SIGNATURE_HEADER, CARD_TIMESTAMP_HEADER, signCardPayload } from "~/domain/payments/gateways/card/card-signature";
import { now } from "~/lib/clock.server";
import { sandboxEnabled } from "~/lib/env.server";
import { enqueueJob } from "~/lib/jobs.server";
import { isPlatformNotifyAddress } from "./return-addresses.server";

export const CARD_NOTIFY_JOB = "sandbox_card_notify";
const DELIVERY_ATTEMPTS = 8;

export type CardPaymentState = {
  id: string;
  reference: string;
  status: string;
  amount: number;
  captured_amount: number;
  refunded_amount: number;
  currency: string;
  card: string | null;
};

type NotificationJob = { apiKey: string; notifyUrl: string; body: string };

/** A stored sandbox card payment as the outside world sees it: in notifications and inquiries. */
export function cardPaymentState(payment: Selectable<SandboxCardPaymentTable>): CardPaymentState {
  return {
    id: payment.id,
    reference: payment.reference,
    status: payment.status,
    amount: payment.amount,
    captured_amount: payment.captured_amount,
    refunded_amount: payment.refunded_amount,
    currency: payment.currency,
    card: payment.card_masked,
  };
}

/**
 * Queues a signed "payment.updated" message to the merchant; call it inside the transaction
 * that changed the payment. The body is the state at this moment, like an acquirer's event.
 */
export async function queueCardNotification(trx: Kysely<Database>, payment: Selectable<SandboxCardPaymentTable>) {
  const body = JSON.stringify({ ...cardPaymentState(payment), event: "payment.updated" });
  const job: NotificationJob = { apiKey: payment.api_key, notifyUrl: payment.notify_url, body };
  await enqueueJob(trx, CARD_NOTIFY_JOB, job, { maxAttempts: DELIVERY_ATTEMPTS });
}

/**
 * Anything but a 2xx answer throws, so the job is retried with backoff. Checked again at delivery:
 * with the sandboxes off, or an address that is not the platform's own notification route, nothing
 * is sent (decision 0014).
 */
export async function deliverCardNotification(db: DB, job: NotificationJob) {
  if (!sandboxEnabled() || !isPlatformNotifyAddress(job.notifyUrl)) {
    console.warn("card sandbox notification dropped: the sandboxes are off or the address is not the platform's");
    return;
  }
  const merchant = await db
    .selectFrom("sandbox_card_merchants")
    .select("webhook_secret")
    .where("api_key", "=", job.apiKey)
    .executeTakeFirst();
  if (!merchant) throw new Error("The card sandbox merchant of this notification no longer exists");
  const timestamp = String(Math.floor(now().getTime() / 1000));
  const response = await fetch(job.notifyUrl, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [CARD_TIMESTAMP_HEADER]: timestamp,
      [CARD_SIGNATURE_HEADER]: signCardPayload(merchant.webhook_secret, timestamp, job.body),
    },
    body: job.body,
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`Notification answered HTTP ${response.status}`);
}

