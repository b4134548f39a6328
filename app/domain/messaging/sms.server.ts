import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { enqueueJob } from "~/lib/jobs.server";
import type { TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";
import { fillPlaceholders, loadSmsWording } from "./template-overrides.server";

/** Where a real SMS provider plugs in at start-up: it delivers a stored message to a phone. */
export type SmsProvider = { deliver(message: { to: string; body: string }): Promise<void> };

let provider: SmsProvider | undefined;

export function setSmsProvider(next: SmsProvider | undefined) {
  provider = next;
}

export const SEND_SMS_JOB = "send_sms";

/** The text messages the platform writes (locales: sms.<template>). */
export const SMS_TEMPLATES = ["pay_link"] as const;

type SmsMessage = { merchantId: number | null; template: string; params: TextParams; lang: Language };

/**
 * A message's words in the recipient's language: the merchant's own when it wrote some (`body`
 * given: those, as a preview), the default's otherwise.
 */
export async function smsText(db: DB, message: SmsMessage & { body?: string | null }) {
  const own =
    message.body !== undefined
      ? message.body
      : message.merchantId === null
        ? null
        : await loadSmsWording(db, { merchantId: message.merchantId, template: message.template, lang: message.lang });
  return own
    ? fillPlaceholders(own, message.params, message.lang)
    : texts().line(`sms.${message.template}`, message.params, message.lang);
}

/**
 * A text message (locales: sms.<template>) in the recipient's language, written to the outbox in
 * the same database transaction as what caused it, like mail. Without a provider it stays there,
 * where the merchant reads it beside the mailbox; with one, a job delivers it after commit (not
 * before `sendAt` when given).
 */
export async function sendSms(db: DB, message: SmsMessage & { to: string; sendAt?: Date }) {
  const inserted = await db
    .insertInto("outgoing_sms")
    .values({
      merchant_id: message.merchantId,
      to_number: message.to,
      body: (await smsText(db, message)).slice(0, 1000),
      status: provider ? "queued" : "stored",
      created_at: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (provider) await enqueueJob(db, SEND_SMS_JOB, { smsId: inserted.id }, { runAt: message.sendAt });
  return inserted.id;
}

/**
 * The send_sms job: hands one stored message to the provider, once. A refusal is kept on the
 * message (`error`) and the job tries again; when it gives up the message is `failed`.
 */
export async function deliverQueuedSms(db: DB, payload: { smsId: number }) {
  const message = await db
    .selectFrom("outgoing_sms")
    .select(["id", "to_number", "body", "status"])
    .where("id", "=", payload.smsId)
    .executeTakeFirst();
  if (!message || message.status !== "queued" || !provider) return;
  try {
    await provider.deliver({ to: message.to_number, body: message.body });
  } catch (error) {
    await db
      .updateTable("outgoing_sms")
      .set({ error: String(error instanceof Error ? error.message : error).slice(0, 1000) })
      .where("id", "=", message.id)
      .execute();
    throw error;
  }
  await db.updateTable("outgoing_sms").set({ status: "sent", error: null }).where("id", "=", message.id).execute();
}

/** When the send_sms job gives up: the message is `failed`, with the provider's last words. */
export async function giveUpSms(db: DB, payload: { smsId: number }) {
  await db
    .updateTable("outgoing_sms")
    .set((eb) => ({ status: "failed", error: eb.fn.coalesce("error", eb.val("Delivery was given up")) }))
    .where("id", "=", payload.smsId)
    .where("status", "=", "queued")
    .execute();
}

/** The merchant's newest text messages, as kept in the outbox. */
export async function listSms(db: DB, merchantId: number, options: { limit: number }) {
  return db
    .selectFrom("outgoing_sms")
    .select(["id", "to_number", "body", "status", "created_at"])
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
}
