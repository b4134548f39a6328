import { DateTime } from "luxon";
import type { Language } from "./i18n";

export const DISPLAY_ZONE = "Asia/Kuwait";

const counts = new Map<Language, Intl.NumberFormat>();

/** A count as people read it, in the page's language: 12,345. */
export function formatCount(value: number, lang: Language): string {
  let format = counts.get(lang);
  if (!format) counts.set(lang, (format = new Intl.NumberFormat(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US")));
  return format.format(value);
}

/** A stored UTC timestamp as Kuwait time, hh:mm AM/PM, in the page's language (Arabic takes its own comma). */
export function formatDateTime(iso: string, lang: Language): string {
  return DateTime.fromISO(iso, { zone: "utc" })
    .setZone(DISPLAY_ZONE)
    .setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US")
    .toFormat(lang === "ar" ? "dd LLL yyyy، hh:mm a" : "dd LLL yyyy, hh:mm a");
}

/** A time in a list's cell: Kuwait time, short enough for one line (09/03/26 11:59 PM). */
export function formatListDateTime(iso: string, lang: Language): string {
  return DateTime.fromISO(iso, { zone: "utc" })
    .setZone(DISPLAY_ZONE)
    .setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US")
    .toFormat("dd/MM/yy hh:mm a");
}

/** A calendar date (yyyy-MM-dd) as a day people read: "Mon 14 Dec", "الاثنين 14 ديسمبر". */
export function formatDay(date: string, lang: Language): string {
  return DateTime.fromISO(date, { zone: DISPLAY_ZONE })
    .setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-GB")
    .toFormat("ccc d LLL");
}

/** A masked card as people read it on a receipt: its last four digits, never more. */
export function cardEnding(cardMasked: string | null): string | null {
  return cardMasked ? `•••• ${cardMasked.slice(-4)}` : null;
}
