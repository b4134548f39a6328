import type { DB } from "~/db/database.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { env } from "~/lib/env.server";
import type { Language } from "~/lib/i18n";
import { type MoneyParam, type TextParams, type WordParam } from "~/lib/outcome";
import { texts } from "~/lib/texts.server";
import type { MailBranding, MailContent } from "./mail-layout";
import { fillPlaceholders, loadMailWording, type MailWording } from "./template-overrides.server";

/**
 * Who a mail is for decides whose look it takes: a customer sees the merchant's unit (logo, title,
 * header colour, as on the pay page), a merchant's user sees the merchant, the support desk the platform.
 */
type Audience = "customer" | "staff" | "support";

/** A row of details: the label's translation key and its value (an amount is written in the reader's language). */
export type MailRow = [labelKey: string, value: string | number | MoneyParam | WordParam];

export type TemplateSpec = {
  audience: Audience;
  /** Rows taken from the mail's parameters: [label key, parameter]. */
  rows?: [string, string][];
  /** The parameter holding the address of the mail's button. */
  action?: string;
  outro?: boolean;
  /** The parameter with the reader's name: without it, the intro is intro_anonymous ("Hello," alone). */
  named?: string;
};

/**
 * Every mail the platform writes. Words live in locales under mail.<template>: subject, heading,
 * intro (paragraphs split by a blank line), action (the button), outro.
 */
const TEMPLATES: Record<string, TemplateSpec> = {
  pay_link: { audience: "customer", rows: [["mail.labels.amount", "amount"]], action: "link", outro: true },
  receipt: { audience: "customer", named: "name" },
  refund: { audience: "customer", named: "name" },
  payment_return: { audience: "customer", named: "name" },
  login_code: { audience: "staff", outro: true },
  password_reset: { audience: "staff", action: "link", outro: true },
  invitation: { audience: "staff", action: "link", outro: true },
  password_changed: { audience: "staff", outro: true },
  sign_in_failures: { audience: "staff", outro: true },
  help_request: {
    audience: "support",
    rows: [
      ["mail.labels.subject", "subject"],
      ["mail.labels.from", "from"],
      ["mail.labels.merchant", "merchant"],
    ],
    outro: true,
  },
};

/** A section's own mails (its server part's `mailTemplates`), added when the platform starts. */
export function registerMailTemplate(template: string, spec: TemplateSpec) {
  if (TEMPLATES[template] && TEMPLATES[template] !== spec)
    throw new Error(`Mail template ${template} is registered twice`);
  TEMPLATES[template] = spec;
}

export function isMailTemplate(template: string) {
  return template in TEMPLATES;
}

/** The mails a merchant may word itself (its customers' and its users'; not the support desk's), with the parts each has. */
export function merchantMailTemplates() {
  return Object.entries(TEMPLATES)
    .filter(([, spec]) => spec.audience !== "support")
    .map(([template, spec]) => ({
      template,
      audience: spec.audience as "customer" | "staff",
      action: Boolean(spec.action),
      outro: Boolean(spec.outro),
      named: Boolean(spec.named),
    }));
}

/** A logo a mail reader can load: an absolute address, or the platform's own path under BASE_URL. */
function absoluteLogo(url: string | null): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  const base = env().BASE_URL;
  return base && url.startsWith("/") && !url.startsWith("//") ? `${base.replace(/\/$/, "")}${url}` : null;
}

async function brandingFor(
  db: DB,
  audience: Audience,
  merchantId: number | null,
  unitId: number | null,
  lang: Language,
): Promise<MailBranding> {
  const platform = { name: texts().line("app.name", {}, lang), logoUrl: null, headerColor: "#ffffff" };
  if (audience === "support" || merchantId === null) return platform;
  if (audience === "customer") {
    const unit = await loadUnitHeader(db, { merchant_id: merchantId, unit_id: unitId }, lang);
    if (unit) return { name: unit.title, logoUrl: absoluteLogo(unit.logoUrl), headerColor: unit.headerColor };
  }
  const merchant = await db
    .selectFrom("merchants")
    .select(["title_en", "title_ar", "logo_url"])
    .where("id", "=", merchantId)
    .executeTakeFirst();
  if (!merchant) return platform;
  return {
    name: lang === "ar" ? merchant.title_ar : merchant.title_en,
    logoUrl: absoluteLogo(merchant.logo_url),
    headerColor: "#ffffff",
  };
}

/** What a row's value reads as: through the same port as every other message, so amounts look alike everywhere. */
function valueOf(value: MailRow[1], lang: Language): string {
  if (typeof value === "string" || typeof value === "number") return String(value);
  return texts().line("mail.value", { value }, lang);
}

/** A mail in the reader's language, ready to be written out as HTML and as plain text. */
export async function composeMail(
  db: DB,
  input: {
    merchantId: number | null;
    unitId?: number | null;
    template: string;
    params: TextParams;
    rows?: MailRow[];
    lang: Language;
    /** The merchant's words to write it with instead of those it saved (a preview). */
    wording?: MailWording | null;
  },
): Promise<MailContent> {
  const spec = TEMPLATES[input.template];
  if (!spec) throw new Error(`Unknown mail template ${input.template}`);
  const words = texts();
  const branding = await brandingFor(db, spec.audience, input.merchantId, input.unitId ?? null, input.lang);
  const params: TextParams = { merchant: branding.name, ...input.params };
  // The merchant's own words where it wrote some; the support desk's mail is the platform's.
  const own =
    input.wording !== undefined
      ? input.wording
      : spec.audience === "support" || input.merchantId === null
        ? null
        : await loadMailWording(db, { merchantId: input.merchantId, template: input.template, lang: input.lang });
  const line = (key: string) => {
    const text = own?.[key as keyof MailWording];
    return text
      ? fillPlaceholders(text, params, input.lang)
      : words.line(`mail.${input.template}.${key}`, params, input.lang);
  };
  const paragraphs = (text: string) =>
    text
      .split(/\n\s*\n/)
      .map((part) => part.trim())
      .filter(Boolean);
  const fromParams: MailRow[] = (spec.rows ?? [])
    .filter(([, name]) => params[name] !== null && params[name] !== undefined && params[name] !== "")
    .map(([label, name]) => [label, params[name] as MailRow[1]]);
  const link = spec.action ? params[spec.action] : undefined;
  return {
    lang: input.lang,
    subject: line("subject"),
    heading: line("heading"),
    // The merchant's one intro serves both: without a name, its {{name}} is left out.
    intro: paragraphs(line(spec.named && !params[spec.named] && !own?.intro ? "intro_anonymous" : "intro")),
    rows: [...fromParams, ...(input.rows ?? [])].map(([label, value]) => [
      words.line(label, {}, input.lang),
      valueOf(value, input.lang),
    ]),
    action: typeof link === "string" && link ? { label: line("action"), url: link } : null,
    outro: spec.outro ? paragraphs(line("outro")) : [],
    footer: words.line(`mail.footer.${spec.audience}`, params, input.lang),
    branding,
  };
}
