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
 * messages, receipts, what made a transaction (its details rows) and the customer pages (sent without scripts). The browser's copy of the catalogue leaves them out (vite.config.ts);
 * browser-catalogue.test.ts checks that no code the browser runs asks for one of them.
 */
export const SERVER_ONLY_NAMESPACES = [
  "audit",
  "audit_entry",
  "mail",
  "sms",
  "receipt",
  "pay",
  "events_public",
  "event_tickets",
  "food_public",
  "collect_public",
  "catalogue_public",
  "shopify_public",
  "cpr_public",
  "transaction_sources",
  "checkout_public",
  "ecommerce",
  "checkout_operations",
] as const;

/**
 * Namespaces only some pages need: the browser's catalogue leaves them out too, and the pages that
 * use them get them from their layout's loader (routes/admin/layout.tsx, a section's dashboard layout), so the rest of the
 * dashboard does not carry the administration panel's words. browser-catalogue.test.ts checks that
 * no other code the browser runs asks for them.
 */
export const PAGE_NAMESPACES = {
  admin: ["admin", "operator", "checkout_fields", "permissions"],
  event: ["event", "bookings", "checkin", "event_setup"],
  food: ["food", "food_setup", "food_orders", "food_bulk"],
  catalogue: ["catalogue_admin"],
  bulk: ["bulk"],
  customer_payment: ["collectors"],
  session: ["sessions"],
  shopify: ["shopify"],
  code_pairing: ["code_pairing"],
  pos: ["pos"],
  reconciliation: ["reconciliation"],
  mailbox: ["mailbox"],
  statistics: ["statistics"],
  reports: ["reports"],
} as const;
