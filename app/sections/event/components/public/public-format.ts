import { DateTime } from "luxon";
import type { Language } from "~/lib/i18n";

const locale = (lang: Language) => (lang === "ar" ? "ar-KW-u-nu-latn" : "en-US");

/** An event's date (a day in Kuwait, YYYY-MM-DD) as people read it: "Sun, 20 Dec 2026". */
export function formatEventDate(date: string, lang: Language) {
  return DateTime.fromISO(date, { zone: "Asia/Kuwait" })
    .setLocale(locale(lang))
    .toFormat(lang === "ar" ? "cccc، dd LLL yyyy" : "ccc, dd LLL yyyy");
}

/** A ticket's hours (HH:mm in Kuwait) as hh:mm AM/PM: "06:00 PM – 10:00 PM". */
export function formatSlot(start: string, end: string, lang: Language) {
  const time = (value: string) =>
    DateTime.fromFormat(value, "HH:mm", { zone: "Asia/Kuwait" }).setLocale(locale(lang)).toFormat("hh:mm a");
  return `${time(start)} – ${time(end)}`;
}
