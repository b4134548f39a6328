import { DateTime } from "luxon";
import QRCode from "qrcode";
import type { DB } from "~/db/database.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { findPublicBooking } from "../domain/bookings.server";
import { ticketsPath } from "../domain/booking-mail.server";
import { qrContentOf } from "../domain/tickets.server";

/** One paid place as its ticket shows it: its number, where it stands among the booking's places and what its QR code holds. */
export type TicketPlace = { number: string; position: number; total: number; qrContent: string; scanned: boolean };

export type TicketsView = {
  bookingId: number;
  lang: Language;
  event: string;
  location: string;
  date: string;
  slot: string;
  ticket: string;
  customer: string;
  places: TicketPlace[];
  /** Places still waiting for their payment, each group with where to pay it. */
  pending: { quantity: number; payPath: string | null }[];
  unit: Awaited<ReturnType<typeof loadUnitHeader>>;
};

/** "Sunday 20 December 2026": an event's calendar date as people read it, in the reader's language. */
export function eventDateText(date: string, lang: Language) {
  const day = DateTime.fromISO(date, { zone: DISPLAY_ZONE });
  if (!day.isValid) return date;
  return day.setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-GB").toFormat("cccc d LLLL yyyy");
}

/**
 * A booking's tickets as its customer sees them, found by its id and uuid (the key the booking
 * e-mail gives): undefined for a wrong pair. `lang` defaults to the booking's own language.
 */
export async function loadTicketsView(
  db: DB,
  bookingId: number,
  uuid: string,
  lang?: Language,
): Promise<TicketsView | undefined> {
  if (!Number.isSafeInteger(bookingId) || bookingId < 1 || !/^[\w-]{8,64}$/.test(uuid)) return undefined;
  const view = await findPublicBooking(db, bookingId, uuid);
  if (!view) return undefined;
  const { booking, event, ticket } = view;
  const language: Language = lang ?? (isLanguage(booking.lang) ? booking.lang : "en");
  const paid = view.members.filter((member) => member.is_purchased);
  const places: TicketPlace[] = [];
  for (const [index, member] of paid.entries()) {
    places.push({
      number: member.number,
      position: index + 1,
      total: paid.length,
      qrContent: await qrContentOf(db, event.id, member.number),
      scanned: member.is_qr_scanned,
    });
  }
  const ar = language === "ar";
  return {
    bookingId: booking.id,
    lang: language,
    event: ar ? event.title_ar : event.title_en,
    location: (ar ? event.location_ar : event.location_en) || (ar ? event.location_en : event.location_ar),
    date: eventDateText(booking.event_date, language),
    slot: `${ticket.start_time}–${ticket.end_time}`,
    ticket: ar ? ticket.name_ar : ticket.name_en,
    customer: [booking.customer_first_name, booking.customer_last_name].filter(Boolean).join(" "),
    places,
    pending: view.items
      .filter((item) => item.status === "pending")
      .map((item) => ({
        quantity: item.quantity,
        payPath: item.transaction_id ? `/${language}/pay/${item.transaction_id}` : null,
      })),
    unit: await loadUnitHeader(db, event, language),
  };
}

/** A place's QR code as an SVG image in a data URL, sharp at any size on a phone's screen. */
export async function qrDataUrl(content: string) {
  const svg = await QRCode.toString(content, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** A place's QR code as a PNG, for the PDF. */
export function qrPng(content: string) {
  return QRCode.toBuffer(content, { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 10 });
}

/** Where the tickets' PDF of a booking is downloaded. */
export function ticketsPdfPath(lang: Language, bookingId: number, uuid: string) {
  return `${ticketsPath(lang, bookingId, uuid)}/tickets.pdf`;
}
