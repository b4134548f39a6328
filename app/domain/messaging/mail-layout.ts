import type { Language } from "~/lib/i18n";

/** Whose look a mail takes: the merchant's unit for its customers, the platform's for staff and support. */
export type MailBranding = {
  name: string;
  /** An absolute http(s) address a mail reader can load, or null. */
  logoUrl: string | null;
  /** The header's background, #rrggbb. */
  headerColor: string;
};

/** A mail in words, already in the reader's language: both parts are written from it, so they say the same. */
export type MailContent = {
  lang: Language;
  subject: string;
  heading: string;
  /** Paragraphs before the details. */
  intro: string[];
  rows: [label: string, value: string][];
  /** A button (HTML) or a labelled address (text). */
  action: { label: string; url: string } | null;
  /** Paragraphs after the details. */
  outro: string[];
  footer: string;
  branding: MailBranding;
};

const COLORS = {
  page: "#f1f3f5",
  card: "#ffffff",
  text: "#212529",
  muted: "#5c636a",
  rule: "#dee2e6",
  button: "#1c7ed6",
};
const FONT = "-apple-system,'Segoe UI',Tahoma,Arial,'Noto Sans','Noto Sans Arabic',sans-serif";

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Only #rrggbb reaches a style attribute; anything else is white. */
function safeColor(color: string): string {
  return /^#[0-9a-f]{6}$/i.test(color) ? color : "#ffffff";
}

/** Black or white text on the header colour (the public header's rule: YIQ brightness ≥ 155 takes black). */
function textOn(color: string): string {
  const hex = safeColor(color).slice(1);
  const [r, g, b] = [0, 2, 4].map((offset) => parseInt(hex.slice(offset, offset + 2), 16));
  return (r * 299 + g * 587 + b * 114) / 1000 >= 155 ? COLORS.text : "#ffffff";
}

/** Only http(s) addresses become links or images. */
function safeUrl(url: string): string | null {
  return /^https?:\/\/[^\s"'<>]+$/i.test(url) ? url : null;
}

const paragraphsHtml = (paragraphs: string[], align: string) =>
  paragraphs
    .map(
      (text) =>
        `<p style="margin:0 0 14px;font-size:15px;line-height:1.6;text-align:${align};">${escapeHtml(text).replace(/\n/g, "<br>")}</p>`,
    )
    .join("");

/**
 * The HTML part: one table-based column of 600 px, inline styles only (mail readers drop style
 * sheets), every value escaped, right to left for Arabic. Amounts sit in their own isolated
 * cells, so a sentence's punctuation never lands beside a currency sign.
 */
export function mailHtml(content: MailContent): string {
  const rtl = content.lang === "ar";
  const dir = rtl ? "rtl" : "ltr";
  const start = rtl ? "right" : "left";
  const end = rtl ? "left" : "right";
  const header = safeColor(content.branding.headerColor);
  const logo = content.branding.logoUrl ? safeUrl(content.branding.logoUrl) : null;
  const action = content.action && safeUrl(content.action.url) ? content.action : null;
  const rows = content.rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:9px 0;border-bottom:1px solid ${COLORS.rule};color:${COLORS.muted};font-size:14px;text-align:${start};vertical-align:top;">${escapeHtml(label)}</td>` +
        `<td style="padding:9px 0;border-bottom:1px solid ${COLORS.rule};font-size:14px;font-weight:bold;text-align:${end};vertical-align:top;"><bdi>${escapeHtml(value).replace(/\n/g, "<br>")}</bdi></td></tr>`,
    )
    .join("");
  return [
    `<!DOCTYPE html><html lang="${content.lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(content.subject)}</title></head>`,
    `<body dir="${dir}" style="margin:0;padding:0;background:${COLORS.page};color:${COLORS.text};font-family:${FONT};">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLORS.page};"><tr><td align="center" style="padding:24px 12px;">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="width:100%;max-width:600px;background:${COLORS.card};border:1px solid ${COLORS.rule};border-radius:8px;border-collapse:separate;">`,
    `<tr><td style="background:${header};color:${textOn(header)};padding:18px 24px;border-radius:8px 8px 0 0;text-align:${start};border-bottom:1px solid ${COLORS.rule};">`,
    logo
      ? `<img src="${escapeHtml(logo)}" alt="" height="48" style="height:48px;max-width:200px;vertical-align:middle;border:0;">&nbsp;&nbsp;`
      : "",
    `<span style="font-size:18px;font-weight:bold;vertical-align:middle;">${escapeHtml(content.branding.name)}</span></td></tr>`,
    `<tr><td style="padding:24px;text-align:${start};">`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;text-align:${start};">${escapeHtml(content.heading)}</h1>`,
    paragraphsHtml(content.intro, start),
    rows
      ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="margin:8px 0 18px;border-collapse:collapse;">${rows}</table>`
      : "",
    action
      ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 18px;"><tr><td style="background:${COLORS.button};border-radius:6px;">` +
        `<a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 22px;color:#ffffff;font-size:15px;font-weight:bold;text-decoration:none;">${escapeHtml(action.label)}</a></td></tr></table>` +
        `<p style="margin:0 0 14px;font-size:12px;color:${COLORS.muted};text-align:${start};word-break:break-all;" dir="ltr">${escapeHtml(action.url)}</p>`
      : "",
    paragraphsHtml(content.outro, start),
    `</td></tr>`,
    `<tr><td style="padding:14px 24px;border-top:1px solid ${COLORS.rule};color:${COLORS.muted};font-size:12px;text-align:${start};">${escapeHtml(content.footer)}</td></tr>`,
    `</table></td></tr></table></body></html>`,
  ].join("");
}

/** The plain-text part: the same words, rows as "label: value", the action as its address. */
export function mailText(content: MailContent): string {
  const width = Math.max(0, ...content.rows.map(([label]) => label.length));
  const blocks = [
    ...content.intro,
    content.rows
      .map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value.replace(/\n/g, `\n${" ".repeat(width + 2)}`)}`)
      .join("\n"),
    content.action ? `${content.action.label}:\n${content.action.url}` : "",
    ...content.outro,
    `--\n${content.footer}`,
  ];
  return `${blocks.filter(Boolean).join("\n\n")}\n`;
}
