import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";

/**
 * The SMS provider interface. The default provider keeps messages in the outbox, where the
 * merchant can read them like the mailbox; a real provider plugs in here.
 */
export type SmsProvider = { send(db: DB, message: { merchantId: number | null; to: string; body: string }): Promise<void> };

export const storedSmsProvider: SmsProvider = {
  async send(db, message) {
    await db
      .insertInto("outgoing_sms")
      .values({ merchant_id: message.merchantId, to_number: message.to, body: message.body.slice(0, 1000), status: "stored", created_at: nowIso() })
      .execute();
  },
};

let provider: SmsProvider = storedSmsProvider;

/** Where a real SMS provider plugs in at start-up. */
export function setSmsProvider(next: SmsProvider) {
  provider = next;
}

/** A text message (locales: sms.<template>) in the recipient's language. */
export function sendSms(db: DB, message: { merchantId: number | null; to: string; template: string; params: TextParams; lang: Language }) {
  return provider.send(db, { merchantId: message.merchantId, to: message.to, body: texts().line(`sms.${message.template}`, message.params, message.lang) });
}

/** The merchant's newest text messages, as kept by the default provider. */
export async function listSms(db: DB, merchantId: number, options: { limit: number }) {
  return db
    .selectFrom("outgoing_sms")
    .select(["id", "to_number", "body", "status", "created_at"])
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
}
