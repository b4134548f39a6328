import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { DISPLAY_ZONE } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { parseBookingQuery } from "../domain/booking-list.server";

/** A Kuwait day of a created-range bound, as the filter form took it. */
function day(iso: string, lang: Language) {
  return DateTime.fromISO(iso, { zone: "utc" })
    .setZone(DISPLAY_ZONE)
    .setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US")
    .toFormat("dd LLL yyyy");
}

/**
 * A bookings export's filters as Generated reports states them, in the reader's language: the
 * event and ticket by name, the attendance in words, the created range as days.
 */
export async function describeBookingReportFilters(db: DB, merchantId: number, query: string, lang: Language) {
  const { filters } = parseBookingQuery(new URLSearchParams(query));
  const t = translator(lang);
  const described: { label: string; value: string }[] = [];
  const add = (key: string, value: string | null | undefined) => {
    if (value) described.push({ label: t(`bookings.filters.${key}`), value });
  };
  add("q", filters.q ? (lang === "ar" ? `«${filters.q}»` : `“${filters.q}”`) : null);
  if (filters.event !== undefined) {
    const event = await db
      .selectFrom("events")
      .select(["title_en", "title_ar"])
      .where("merchant_id", "=", merchantId)
      .where("id", "=", filters.event)
      .executeTakeFirst();
    add("event", event ? (lang === "ar" ? event.title_ar : event.title_en) : `#${filters.event}`);
  }
  if (filters.ticket !== undefined) {
    const ticket = await db
      .selectFrom("event_tickets")
      .select(["name_en", "name_ar"])
      .where("merchant_id", "=", merchantId)
      .where("id", "=", filters.ticket)
      .executeTakeFirst();
    add("ticket", ticket ? (lang === "ar" ? ticket.name_ar : ticket.name_en) : `#${filters.ticket}`);
  }
  add("event_date", filters.event_date);
  add("email", filters.email);
  add("customer_phone", filters.customer_phone);
  add("full_name", filters.full_name);
  add("created_after", filters.created_after ? day(filters.created_after, lang) : null);
  add("created_before", filters.created_before ? day(filters.created_before, lang) : null);
  add("attendance", filters.attendance ? t(`bookings.attendance.${filters.attendance}`) : null);
  return described;
}
