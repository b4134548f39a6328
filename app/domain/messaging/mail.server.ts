import nodemailer, { type Transporter } from "nodemailer";
import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import type { Language } from "~/lib/i18n";
import { enqueueJob } from "~/lib/jobs.server";
import type { TextParams } from "~/lib/outcome";
import { mailHtml, mailText } from "./mail-layout";
import { composeMail, type MailRow } from "./mail-templates.server";

export type OutgoingMail = {
  merchantId: number | null;
  to: string;
  /** Which mail (locales: mail.<template>) and what it says, in the recipient's language. */
  template: string;
  params: TextParams;
  lang: Language;
  replyTo?: string;
  /** Details shown as a table of label and value, after those the template takes from its parameters. */
  rows?: MailRow[];
  /** The merchant's unit whose look a customer's mail takes; its default unit when not given. */
  unitId?: number | null;
  /** Files the mail carries, made from what they name when the mail is sent or read (a booking's tickets). */
  attachments?: MailAttachment[];
  /** Not sent before this time (a bulk's pace); at once when not given. */
  sendAt?: Date;
};

/** A file of a mail: its kind (a renderer a section registers), what it is made from, and its name. */
export type MailAttachment = { type: string; ref: string; filename: string };

export type AttachmentRenderer = (db: DB, ref: string) => Promise<{ content: Buffer; contentType: string } | undefined>;

const renderers = new Map<string, AttachmentRenderer>();

/** Where a section's mail attachments are made (its server part's `mailAttachments`), connected when the platform starts. */
export function registerMailAttachment(type: string, render: AttachmentRenderer) {
  renderers.set(type, render);
}

/** The attachments a stored mail names. */
export function attachmentsOf(value: string | null): MailAttachment[] {
  if (!value) return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed)
      ? parsed.filter(
          (entry): entry is MailAttachment =>
            typeof entry?.type === "string" && typeof entry?.ref === "string" && typeof entry?.filename === "string",
        )
      : [];
  } catch {
    return [];
  }
}

/** One attachment's file, made now; undefined when what it was made from is gone or its kind is unknown. */
export async function renderMailAttachment(db: DB, attachment: MailAttachment) {
  const render = renderers.get(attachment.type);
  return render ? render(db, attachment.ref) : undefined;
}

export const SEND_MAIL_JOB = "send_mail";

/**
 * Every mail is written to the outbox, in words — a plain-text and an HTML part, in the recipient's
 * language — in the same database transaction as what caused it. With SMTP_URL it is queued and a
 * job delivers it; without, it stays stored there and the merchant's mailbox page shows it.
 */
export async function queueMail(db: DB, outgoing: OutgoingMail) {
  const smtp = Boolean(env().SMTP_URL);
  const content = await composeMail(db, outgoing);
  const inserted = await db
    .insertInto("outgoing_mail")
    .values({
      merchant_id: outgoing.merchantId,
      to_address: outgoing.to,
      reply_to: outgoing.replyTo ?? null,
      subject: content.subject,
      text_body: mailText(content),
      html_body: mailHtml(content),
      status: smtp ? "queued" : "stored",
      created_at: nowIso(),
      attachments: outgoing.attachments?.length ? JSON.stringify(outgoing.attachments) : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (smtp) await enqueueJob(db, SEND_MAIL_JOB, { mailId: inserted.id }, { runAt: outgoing.sendAt });
  return inserted.id;
}

const transports = new Map<string, Transporter>();

/** The send_mail job: delivers one stored mail through SMTP, once. */
export async function sendQueuedMail(db: DB, payload: { mailId: number }) {
  const mail = await db
    .selectFrom("outgoing_mail")
    .select(["id", "to_address", "reply_to", "subject", "text_body", "html_body", "status", "attachments"])
    .where("id", "=", payload.mailId)
    .executeTakeFirst();
  if (!mail || mail.status === "sent") return;
  const config = env();
  if (!config.SMTP_URL) throw new Error("SMTP_URL is not set: the mail stays queued");
  let transport = transports.get(config.SMTP_URL);
  if (!transport) transports.set(config.SMTP_URL, (transport = nodemailer.createTransport(config.SMTP_URL)));
  const files = [];
  for (const attachment of attachmentsOf(mail.attachments)) {
    const file = await renderMailAttachment(db, attachment);
    if (file) files.push({ filename: attachment.filename, content: file.content, contentType: file.contentType });
  }
  try {
    await transport.sendMail({
      from: config.MAIL_FROM,
      to: mail.to_address,
      replyTo: mail.reply_to ?? undefined,
      subject: mail.subject,
      // Both parts as multipart/alternative: readers that show HTML take it, the others the text.
      text: mail.text_body,
      html: mail.html_body ?? undefined,
      attachments: files,
    });
  } catch (error) {
    await db
      .updateTable("outgoing_mail")
      .set({ error: String(error instanceof Error ? error.message : error).slice(0, 1000) })
      .where("id", "=", mail.id)
      .execute();
    throw error;
  }
  await db
    .updateTable("outgoing_mail")
    .set({ status: "sent", sent_at: nowIso(), error: null })
    .where("id", "=", mail.id)
    .execute();
}

/**
 * When the send_mail job gives up (its last attempt failed, or its worker stopped during it): the
 * mail is `failed`, keeping the relay's last words. Until then a refused attempt leaves it `queued`
 * with its error while the job retries.
 */
export async function giveUpMail(db: DB, payload: { mailId: number }) {
  await db
    .updateTable("outgoing_mail")
    .set((eb) => ({ status: "failed", error: eb.fn.coalesce("error", eb.val("Delivery was given up")) }))
    .where("id", "=", payload.mailId)
    .where("status", "=", "queued")
    .execute();
}

export async function listMail(db: DB, merchantId: number, options: { limit: number; offset: number }) {
  const rows = await db
    .selectFrom("outgoing_mail")
    .select(["id", "to_address", "subject", "status", "created_at"])
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const { count } = await db
    .selectFrom("outgoing_mail")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return { rows, count: Number(count) };
}

export async function getMail(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("outgoing_mail")
    .select([
      "id",
      "to_address",
      "reply_to",
      "subject",
      "text_body",
      "html_body",
      "status",
      "created_at",
      "sent_at",
      "error",
      "attachments",
    ])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}
