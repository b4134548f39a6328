import { DateTime } from "luxon";
import type { Language } from "./i18n";

export const DISPLAY_ZONE = "Asia/Kuwait";

/** A stored UTC timestamp as Kuwait time, hh:mm AM/PM, in the page's language. */
export function formatDateTime(iso: string, lang: Language): string {
  return DateTime.fromISO(iso, { zone: "utc" })
    .setZone(DISPLAY_ZONE)
    .setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US")
    .toFormat("dd LLL yyyy, hh:mm a");
}
