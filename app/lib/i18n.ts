export const LANGUAGES = ["en", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "ar";
}

export function directionOf(lang: Language): "ltr" | "rtl" {
  return lang === "ar" ? "rtl" : "ltr";
}

export function otherLanguage(lang: Language): Language {
  return lang === "ar" ? "en" : "ar";
}

/** The same path in another language: /en/user → /ar/user. */
export function switchLanguagePath(pathname: string, search: string, lang: Language): string {
  const rest = pathname.replace(/^\/(en|ar)(?=\/|$)/, "");
  return `/${lang}${rest}${search}`;
}

export function languageOfPath(pathname: string): Language {
  const first = pathname.split("/")[1];
  return isLanguage(first) ? first : DEFAULT_LANGUAGE;
}

/**
 * Namespaces of the catalogue that only the server writes out: audit entries, e-mails, text
 * messages, receipts, the pay page and what made a transaction (its details rows). The browser's
 * copy of the catalogue leaves them out (vite.config.ts), with those each section declares as its
 * own (`namespaces.serverOnly` in its section.ts: its customer pages, sent without scripts);
 * browser-catalogue.test.ts checks that no code the browser runs asks for one of them.
 */
export const SERVER_ONLY_NAMESPACES = [
  "audit",
  "audit_entry",
  "mail",
  "sms",
  "receipt",
  "pay",
  "transaction_sources",
] as const;

/**
 * Namespaces only some pages of the platform need: the browser's catalogue leaves them out too, and
 * the pages that use them get them from their loader (routes/admin/layout.tsx, pageTexts), so the
 * rest of the dashboard does not carry the administration panel's words. A section's own pages
 * bring theirs the same way (`namespaces.page` in its section.ts, sent by its dashboard layout).
 * browser-catalogue.test.ts checks that no other code the browser runs asks for them.
 */
export const PAGE_NAMESPACES = {
  admin: ["admin", "operator", "checkout_fields", "permissions"],
  reconciliation: ["reconciliation"],
  mailbox: ["mailbox"],
  statistics: ["statistics"],
  reports: ["reports"],
} as const;
