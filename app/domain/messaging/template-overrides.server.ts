import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";

/**
 * A merchant's own words for a message (notification-templates.server.ts edits them), read where
 * mails and text messages are written, so every message the platform sends for the merchant uses them.
 */

export type NotificationChannel = "mail" | "sms";

/** A mail's parts in the merchant's words; null keeps the default's part. */
export type MailWording = {
  subject: string | null;
  heading: string | null;
  intro: string | null;
  action: string | null;
  outro: string | null;
};

export const MAIL_PARTS = ["subject", "heading", "intro", "action", "outro"] as const;

/** `{{name}}`, as the default words write a placeholder (spaces inside allowed). */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export async function loadMailWording(
  db: DB,
  key: { merchantId: number; template: string; lang: Language },
): Promise<MailWording | null> {
  const row = await db
    .selectFrom("notification_templates")
    .select(["subject", "heading", "intro", "action", "outro"])
    .where("merchant_id", "=", key.merchantId)
    .where("template", "=", key.template)
    .where("channel", "=", "mail")
    .where("lang", "=", key.lang)
    .executeTakeFirst();
  return row ?? null;
}

export async function loadSmsWording(
  db: DB,
  key: { merchantId: number; template: string; lang: Language },
): Promise<string | null> {
  const row = await db
    .selectFrom("notification_templates")
    .select("body")
    .where("merchant_id", "=", key.merchantId)
    .where("template", "=", key.template)
    .where("channel", "=", "sms")
    .where("lang", "=", key.lang)
    .executeTakeFirst();
  return row?.body ?? null;
}

/**
 * The merchant's text with its placeholders filled, each value written as the default words write
 * it (amounts in the reader's language), in one pass: a value is never read for placeholders
 * itself. The text stays text — the mail's layout escapes it with everything else. A placeholder
 * with no value (a customer who gave no name) is left out with the spaces before it, so
 * "Hello {{name}}," reads "Hello,".
 */
export function fillPlaceholders(text: string, params: TextParams, lang: Language): string {
  return text.replace(new RegExp(`([ \\t]*)${PLACEHOLDER.source}`, "g"), (_match, spaces: string, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    const written = value === null || value === undefined ? "" : texts().line("mail.value", { value }, lang);
    return written ? `${spaces}${written}` : "";
  });
}
