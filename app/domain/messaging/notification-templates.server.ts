import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { formatDateTime } from "~/lib/format";
import { LANGUAGES, type Language } from "~/lib/i18n";
import { money, word, type TextParams } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";
import { mailHtml, mailText } from "./mail-layout";
import { composeMail, merchantMailTemplates, type MailRow } from "./mail-templates.server";
import { SMS_TEMPLATES, smsText } from "./sms.server";
import { MAIL_PARTS, PLACEHOLDER, type MailWording, type NotificationChannel } from "./template-overrides.server";

/**
 * The merchant's administrator words the mails and text messages the platform sends for the
 * merchant, per language: a part left blank (or as the default has it) keeps the default, so a
 * later improvement of the default reaches it. Its words are text with `{{placeholders}}` — the
 * ones the default words use — never HTML; the mail's layout escapes them like everything else.
 */

export type { NotificationChannel };
export type TemplatePart = (typeof MAIL_PARTS)[number] | "body";
export type TemplateKey = { template: string; channel: NotificationChannel; lang: Language };
/** A part's words, null where the default stays. */
export type Wording = Partial<Record<TemplatePart, string | null>>;
/** A refusal per part (or non_field_errors): a translation key and its values. */
export type TemplateErrors = Record<string, { code: string; params?: Record<string, string | number> }[]>;

export type EditableTemplate = {
  template: string;
  channel: NotificationChannel;
  /** Who reads it: the merchant's customers or its users. */
  audience: "customer" | "staff";
  parts: TemplatePart[];
  /** The default has a second intro for a reader without a name (the merchant's one intro serves both). */
  named: boolean;
};

type Manager = { id: number; username: string; merchantId: number; is_superuser: number | boolean };

/**
 * Who may word a message: the mails a merchant's users get (sign-in codes, password links,
 * invitations) guard accounts, so only a superuser words those; the customers' mails, any manager.
 */
export function mayWord(manager: Pick<Manager, "is_superuser">, entry: Pick<EditableTemplate, "audience">) {
  return entry.audience !== "staff" || Boolean(manager.is_superuser);
}

const NOT_YOURS: TemplateErrors = { non_field_errors: [{ code: "admin.templates.errors.staff_superuser" }] };

const MAX_LENGTH: Record<TemplatePart, number> = {
  subject: 200,
  heading: 200,
  action: 60,
  intro: 4000,
  outro: 4000,
  body: 480,
};
const ONE_LINE: readonly TemplatePart[] = ["subject", "heading", "action"];
/** What the reader cannot do without — the sign-in code, a text message's link: where the default has it, the merchant's words keep it. */
const ESSENTIAL_PLACEHOLDERS = ["code", "link"];

/** Every message a merchant may word: its mails (not the support desk's) and its text messages, which go to customers. */
export function editableTemplates(): EditableTemplate[] {
  const mails = merchantMailTemplates().map((mail): EditableTemplate => ({
    template: mail.template,
    channel: "mail",
    audience: mail.audience,
    parts: MAIL_PARTS.filter((part) => (part !== "action" || mail.action) && (part !== "outro" || mail.outro)),
    named: mail.named,
  }));
  const sms = SMS_TEMPLATES.map((template): EditableTemplate => ({
    template,
    channel: "sms",
    audience: "customer",
    parts: ["body"],
    named: false,
  }));
  return [...mails, ...sms];
}

export function findEditableTemplate(template: string, channel: string): EditableTemplate | undefined {
  return editableTemplates().find((entry) => entry.template === template && entry.channel === channel);
}

/** The default words of each part in `lang`, placeholders as written (asked for without values, they stay). */
export function defaultWording(entry: EditableTemplate, lang: Language): Record<string, string> {
  const key = (part: string) => (entry.channel === "sms" ? `sms.${entry.template}` : `mail.${entry.template}.${part}`);
  return Object.fromEntries(entry.parts.map((part) => [part, texts().line(key(part), {}, lang)]));
}

const placeholdersIn = (text: string) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]);

/** The placeholders a message's words may use: those its default words use, in either language. */
export function placeholdersOf(entry: EditableTemplate): string[] {
  const found = new Set<string>();
  for (const lang of LANGUAGES) {
    const defaults = Object.values(defaultWording(entry, lang));
    if (entry.named) defaults.push(texts().line(`mail.${entry.template}.intro_anonymous`, {}, lang));
    for (const text of defaults) for (const name of placeholdersIn(text)) found.add(name);
  }
  return [...found];
}

/** The placeholders the merchant's words must keep (see ESSENTIAL_PLACEHOLDERS), with the part whose default has each. */
export function essentialPlaceholders(
  entry: EditableTemplate,
  lang: Language,
): { placeholder: string; part: TemplatePart }[] {
  const defaults = defaultWording(entry, lang);
  return ESSENTIAL_PLACEHOLDERS.flatMap((placeholder) => {
    const part = entry.parts.find((candidate) => placeholdersIn(defaults[candidate]).includes(placeholder));
    return part ? [{ placeholder, part }] : [];
  });
}

/** Text as stored: one kind of line break, no other control characters, no spaces around it. */
function cleanText(value: string, oneLine: boolean) {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const text = value.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
  return oneLine ? text.trim() : text.replace(/[ \t]+\n/g, "\n").trim();
}

/**
 * The merchant's words checked and made ready to store: each part a string, or blank/null/absent
 * for the default; at most so long, on one line where the part is a line, using only the message's
 * placeholders, and keeping the essential ones. A part as the default has it is stored as null.
 */
export function checkWording(
  entry: EditableTemplate,
  lang: Language,
  input: Record<string, unknown>,
): { ok: true; wording: Wording } | { ok: false; errors: TemplateErrors } {
  const errors: TemplateErrors = {};
  const refuse = (part: string, code: string, params?: Record<string, string | number>) =>
    (errors[part] ??= []).push({ code, params });
  const defaults = defaultWording(entry, lang);
  const known = new Set(placeholdersOf(entry));
  const wording: Wording = {};
  for (const part of entry.parts) {
    const raw = input[part];
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      refuse(part, "admin.templates.errors.not_text");
      continue;
    }
    const text = typeof raw === "string" ? cleanText(raw, ONE_LINE.includes(part)) : "";
    wording[part] = text && text !== defaults[part] ? text : null;
    if (!text) continue;
    if (text.length > MAX_LENGTH[part]) refuse(part, "admin.templates.errors.too_long", { max: MAX_LENGTH[part] });
    if (ONE_LINE.includes(part) && /\n/.test(text)) refuse(part, "admin.templates.errors.one_line");
    for (const name of new Set(placeholdersIn(text))) {
      if (!known.has(name))
        refuse(part, "admin.templates.errors.unknown_placeholder", { placeholder: `{{${name.slice(0, 40)}}}` });
    }
  }
  for (const { placeholder, part } of essentialPlaceholders(entry, lang)) {
    const used = entry.parts.some((candidate) =>
      placeholdersIn(wording[candidate] ?? defaults[candidate]).includes(placeholder),
    );
    if (!used && !errors[part])
      refuse(part, "admin.templates.errors.placeholder_needed", { placeholder: `{{${placeholder}}}` });
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, wording };
}

const iso = (value: unknown) => new Date(value as string).toISOString();

/** Each message with, per language, whether the merchant words it itself. */
export async function listNotificationTemplates(db: DB, merchantId: number) {
  const rows = await db
    .selectFrom("notification_templates")
    .select(["template", "channel", "lang", "updated_at"])
    .where("merchant_id", "=", merchantId)
    .execute();
  return editableTemplates().map((entry) => ({
    template: entry.template,
    channel: entry.channel,
    audience: entry.audience,
    languages: LANGUAGES.map((lang) => {
      const row = rows.find(
        (candidate) =>
          candidate.template === entry.template && candidate.channel === entry.channel && candidate.lang === lang,
      );
      return { lang, customised: Boolean(row), updated_at: row ? iso(row.updated_at) : null };
    }),
  }));
}

/** One message in one language: the merchant's words (null parts: the default's), the defaults and its placeholders; undefined for a message nobody may word. */
export async function loadNotificationTemplate(db: DB, merchantId: number, key: TemplateKey) {
  const entry = findEditableTemplate(key.template, key.channel);
  if (!entry) return undefined;
  const row = await db
    .selectFrom("notification_templates as n")
    .leftJoin("users as u", "u.id", "n.updated_by")
    .select(["n.subject", "n.heading", "n.intro", "n.action", "n.outro", "n.body", "n.updated_at", "u.username"])
    .where("n.merchant_id", "=", merchantId)
    .where("n.template", "=", key.template)
    .where("n.channel", "=", key.channel)
    .where("n.lang", "=", key.lang)
    .executeTakeFirst();
  return {
    ...key,
    audience: entry.audience,
    parts: entry.parts,
    placeholders: placeholdersOf(entry),
    essential: essentialPlaceholders(entry, key.lang).map((essential) => essential.placeholder),
    defaults: defaultWording(entry, key.lang),
    wording: Object.fromEntries(entry.parts.map((part) => [part, row?.[part] ?? null])) as Record<
      string,
      string | null
    >,
    customised: Boolean(row),
    updated_at: row ? iso(row.updated_at) : null,
    updated_by: row?.username ?? null,
  };
}

export type NotificationTemplateView = NonNullable<Awaited<ReturnType<typeof loadNotificationTemplate>>>;

/** The audit entry's values: which message, on which channel, in which language — never the words. */
const auditParams = (key: TemplateKey): TextParams => ({
  template: word(`admin.templates.names.${key.template}`, key.template),
  channel: word(`admin.templates.channels.${key.channel}`),
  language: word(`admin.templates.languages.${key.lang}`),
});

/** Removes the merchant's words for one message in one language; whether there were any. */
async function deleteRow(db: DB, merchantId: number, key: TemplateKey) {
  const deleted = await db
    .deleteFrom("notification_templates")
    .where("merchant_id", "=", merchantId)
    .where("template", "=", key.template)
    .where("channel", "=", key.channel)
    .where("lang", "=", key.lang)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

const sameWording = (parts: TemplatePart[], a: Wording, b: Wording) =>
  parts.every((part) => (a[part] ?? null) === (b[part] ?? null));

/**
 * Saves the merchant's words for one message in one language, audited in the same transaction.
 * Words that are the default's throughout leave no row (the message is the default again); words
 * as they were change nothing and record nothing.
 */
export async function saveNotificationTemplate(
  db: DB,
  input: { manager: Manager; key: TemplateKey; wording: Record<string, unknown>; ip?: string | null },
): Promise<{ ok: true; changed: boolean } | { ok: false; errors: TemplateErrors }> {
  const entry = findEditableTemplate(input.key.template, input.key.channel);
  if (!entry) throw new Error(`Not an editable message: ${input.key.template}/${input.key.channel}`);
  if (!mayWord(input.manager, entry)) return { ok: false, errors: NOT_YOURS };
  const checked = checkWording(entry, input.key.lang, input.wording);
  if (!checked.ok) return checked;
  const { wording } = checked;
  const { manager, key } = input;
  return writeTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom("notification_templates")
      .select(["subject", "heading", "intro", "action", "outro", "body"])
      .where("merchant_id", "=", manager.merchantId)
      .where("template", "=", key.template)
      .where("channel", "=", key.channel)
      .where("lang", "=", key.lang)
      .executeTakeFirst();
    if (sameWording(entry.parts, current ?? {}, wording)) return { ok: true as const, changed: false };
    if (entry.parts.every((part) => wording[part] === null)) {
      await deleteRow(trx, manager.merchantId, key);
    } else {
      const parts = { subject: null, heading: null, intro: null, action: null, outro: null, body: null, ...wording };
      const written = { ...parts, updated_at: nowIso(), updated_by: manager.id };
      await trx
        .insertInto("notification_templates")
        .values({
          merchant_id: manager.merchantId,
          template: key.template,
          channel: key.channel,
          lang: key.lang,
          ...written,
        })
        .onConflict((conflict) => conflict.columns(["merchant_id", "template", "channel", "lang"]).doUpdateSet(written))
        .execute();
    }
    await recordAudit(trx, {
      merchantId: manager.merchantId,
      actor: { id: manager.id, username: manager.username },
      action: "notification_template_changed",
      params: auditParams(key),
      objectType: "notification_template",
      objectId: `${key.template}/${key.channel}/${key.lang}`,
      ip: input.ip ?? null,
    });
    return { ok: true as const, changed: true };
  });
}

/** The default words again for one message in one language (its row goes); audited when there was something to reset. */
export async function resetNotificationTemplate(
  db: DB,
  input: { manager: Manager; key: TemplateKey; ip?: string | null },
) {
  const { manager, key } = input;
  const entry = findEditableTemplate(key.template, key.channel);
  if (!entry || !mayWord(manager, entry)) return false;
  return writeTransaction(db, async (trx) => {
    const reset = await deleteRow(trx, manager.merchantId, key);
    if (reset) {
      await recordAudit(trx, {
        merchantId: manager.merchantId,
        actor: { id: manager.id, username: manager.username },
        action: "notification_template_reset",
        params: auditParams(key),
        objectType: "notification_template",
        objectId: `${key.template}/${key.channel}/${key.lang}`,
        ip: input.ip ?? null,
      });
    }
    return { reset };
  });
}

export type NotificationPreview =
  { channel: "mail"; subject: string; html: string; text: string } | { channel: "sms"; text: string };

/**
 * The message as it will be sent — through the same composition, layout and escaping — with sample
 * values for its placeholders, in the message's language. `wording` previews words not saved yet
 * (checked first); without it, what is saved.
 */
export async function previewNotificationTemplate(
  db: DB,
  input: { merchantId: number; viewer: { username: string }; key: TemplateKey; wording?: Wording; baseUrl: string },
): Promise<NotificationPreview> {
  const { key } = input;
  const entry = findEditableTemplate(key.template, key.channel);
  if (!entry) throw new Error(`Not an editable message: ${key.template}/${key.channel}`);
  const merchant = await db
    .selectFrom("merchants")
    .select(["title_en", "title_ar", "currency_code"])
    .where("id", "=", input.merchantId)
    .executeTakeFirstOrThrow();
  const base = input.baseUrl.replace(/\/$/, "");
  const amount = (minor: number) => money(minor, merchant.currency_code);
  const date = formatDateTime(nowIso(), key.lang);
  const samples: TextParams = {
    amount: amount(12_500),
    orderNo: "1024",
    name: word("admin.templates.samples.name"),
    username: input.viewer.username,
    inviter: input.viewer.username,
    code: "482913",
    minutes: 10,
    days: 7,
    time: date,
    link:
      key.template === "pay_link"
        ? `${base}/${key.lang}/pay/sample`
        : `${base}/${key.lang}/reset-password?token=sample`,
  };
  // A placeholder without a sample shows its name, so the preview still tells where it goes.
  const params: TextParams = Object.fromEntries(
    placeholdersOf(entry).map((name) => [name, samples[name] ?? `[${name}]`]),
  );
  if (key.channel === "sms") {
    params.merchant = key.lang === "ar" ? merchant.title_ar : merchant.title_en;
    const body = input.wording ? (input.wording.body ?? null) : undefined;
    return {
      channel: "sms",
      text: await smsText(db, { merchantId: input.merchantId, template: key.template, params, lang: key.lang, body }),
    };
  }
  // The merchant's name is the one the mail's look carries, as when it is sent.
  delete params.merchant;
  params.link = samples.link;
  const sampleRows: Record<string, MailRow[]> = {
    receipt: [
      ["mail.labels.order_no", "1024"],
      ["mail.labels.customer", samples.name as MailRow[1]],
      ["mail.labels.total_paid", amount(12_500)],
      ["mail.labels.method", "KNET"],
      ["mail.labels.reference", "482019374615"],
      ["mail.labels.date", date],
    ],
    refund: [
      ["mail.labels.order_no", "1024"],
      ["mail.labels.reference", "482019374615"],
      ["mail.labels.paid", amount(12_500)],
      ["mail.labels.refunded", amount(5_000)],
      ["mail.labels.remaining", amount(7_500)],
      ["mail.labels.date", date],
    ],
  };
  const wording: MailWording | undefined = input.wording
    ? {
        subject: input.wording.subject ?? null,
        heading: input.wording.heading ?? null,
        intro: input.wording.intro ?? null,
        action: input.wording.action ?? null,
        outro: input.wording.outro ?? null,
      }
    : undefined;
  const content = await composeMail(db, {
    merchantId: input.merchantId,
    template: key.template,
    params,
    rows: sampleRows[key.template],
    lang: key.lang,
    wording,
  });
  return { channel: "mail", subject: content.subject, html: mailHtml(content), text: mailText(content) };
}
