import type { Selectable } from "kysely";
import type { DB } from "~/db/database.server";
import type { EventTable } from "~/db/schema";
import { unitOf } from "~/domain/merchants/units.server";
import { payChoicesFor } from "~/domain/payments/pay-page.server";
import { addressGroup, isThrottled, recordHits } from "~/domain/identity/throttle.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import {
  datesWithPlaces,
  isOffered,
  kuwaitNow,
  ticketAvailability,
  type TicketAvailability,
} from "./availability.server";
import { eventFields } from "./bookings.server";
import type { FeedbackInput } from "./feedback-schema.server";

export type PublicEvent = Selectable<EventTable>;

/** A published event by its slug; drafts and closed events are not public. */
export function findPublishedEvent(db: DB, slug: string): Promise<PublicEvent | undefined> {
  return db
    .selectFrom("events")
    .selectAll()
    .where("slug", "=", slug.slice(0, 120))
    .where("status", "=", "published")
    .executeTakeFirst();
}

export type EventCard = {
  id: number;
  slug: string;
  merchantId: number;
  title: string;
  location: string;
  imageUrl: string | null;
  currency: string;
  isFree: boolean;
  /** The lowest price of a ticket still offered, in minor units. */
  fromPrice: number;
  /** The dates still offered, soonest first. */
  dates: string[];
};

/** Where an event's image is shown from: a stored file through the events' image route, or an address given as it is. */
export function eventImageUrl(event: Pick<PublicEvent, "slug" | "image_path">): string | null {
  if (!event.image_path) return null;
  if (/^(https?:\/\/|\/)/.test(event.image_path)) return event.image_path;
  return `/api/v1/plugins/event/events/${encodeURIComponent(event.slug)}/image`;
}

/** The map link of an event's position. */
export function mapUrlOf(event: Pick<PublicEvent, "lat" | "lng">): string | null {
  if (event.lat === null || event.lng === null) return null;
  return `https://www.google.com/maps/search/?api=1&query=${event.lat},${event.lng}`;
}

/**
 * The published events that still have a date to offer (a later day, or today before the ticket's
 * start), soonest first; one merchant's only when given. Sold-out dates still count: the customer
 * sees the event and that it is sold out.
 */
export async function listPublicEvents(
  db: DB,
  input: { merchantId?: number; lang: Language; limit?: number },
): Promise<EventCard[]> {
  const at = kuwaitNow();
  let query = db
    .selectFrom("event_ticket_dates")
    .innerJoin("event_tickets", "event_tickets.id", "event_ticket_dates.ticket_id")
    .innerJoin("events", "events.id", "event_ticket_dates.event_id")
    .select([
      "events.id as eventId",
      "event_ticket_dates.event_date",
      "event_tickets.start_time",
      "event_tickets.price",
    ])
    .where("events.status", "=", "published")
    .where("event_tickets.is_active", "=", 1)
    .where("event_ticket_dates.event_date", ">=", at.date);
  if (input.merchantId !== undefined) query = query.where("events.merchant_id", "=", input.merchantId);
  const rows = await query.execute();
  const offered = new Map<number, { dates: Set<string>; fromPrice: number }>();
  for (const row of rows) {
    if (!isOffered(row.event_date, row.start_time, at)) continue;
    const entry = offered.get(row.eventId) ?? { dates: new Set<string>(), fromPrice: Number.MAX_SAFE_INTEGER };
    entry.dates.add(row.event_date);
    entry.fromPrice = Math.min(entry.fromPrice, Number(row.price));
    offered.set(row.eventId, entry);
  }
  if (offered.size === 0) return [];
  const events = await db
    .selectFrom("events")
    .select([
      "id",
      "slug",
      "merchant_id",
      "title_en",
      "title_ar",
      "location_en",
      "location_ar",
      "image_path",
      "currency_code",
      "is_free",
    ])
    .where("id", "in", [...offered.keys()])
    .execute();
  return events
    .map((event) => {
      const own = offered.get(event.id)!;
      return {
        id: event.id,
        slug: event.slug,
        merchantId: event.merchant_id,
        title: input.lang === "ar" ? event.title_ar : event.title_en,
        location: input.lang === "ar" ? event.location_ar : event.location_en,
        imageUrl: eventImageUrl(event),
        currency: event.currency_code,
        isFree: Boolean(event.is_free) || own.fromPrice === 0,
        fromPrice: event.is_free ? 0 : own.fromPrice,
        dates: [...own.dates].sort(),
      };
    })
    .sort((a, b) => a.dates[0].localeCompare(b.dates[0]) || a.id - b.id)
    .slice(0, input.limit ?? 100);
}

/** An event as a customer reads it: its words in the page's language, its tickets and the dates still offered. */
export async function publicEventView(db: DB, event: PublicEvent, lang: Language) {
  const tickets = await ticketAvailability(db, event.id);
  const offeredTickets = tickets.filter((ticket) => Object.keys(ticket.remaining_qty_per_date).length > 0);
  const dates = [...new Set(offeredTickets.flatMap((ticket) => Object.keys(ticket.remaining_qty_per_date)))].sort();
  return {
    event,
    title: lang === "ar" ? event.title_ar : event.title_en,
    description: lang === "ar" ? event.description_ar : event.description_en,
    location: lang === "ar" ? event.location_ar : event.location_en,
    imageUrl: eventImageUrl(event),
    mapUrl: mapUrlOf(event),
    isFree: Boolean(event.is_free),
    tickets: offeredTickets,
    /** Every date still offered, sold out or not. */
    dates,
    /** The dates on which some ticket has places left: what registration offers. */
    bookableDates: datesWithPlaces(offeredTickets),
  };
}

export type PublicEventView = Awaited<ReturnType<typeof publicEventView>>;

/** A ticket as the public API answers it (public spec §3 event tickets), its price a decimal string. */
export function serializeTicket(ticket: TicketAvailability, currency: string, isFree: boolean) {
  return {
    id: ticket.id,
    name_en: ticket.name_en,
    name_ar: ticket.name_ar,
    price: toDecimalString(isFree ? 0 : Number(ticket.price), currency),
    start_time: ticket.start_time,
    end_time: ticket.end_time,
    quantity: ticket.quantity,
    dates: ticket.dates,
    remaining_qty_per_date: ticket.remaining_qty_per_date,
  };
}

/** An event as the public API answers it: `GET events/{slug}`; with `full`, its tickets and fields too. */
export async function serializePublicEvent(db: DB, view: PublicEventView) {
  const { event } = view;
  const fields = await eventFields(db, event.id);
  return {
    id: event.id,
    slug: event.slug,
    merchant: event.merchant_id,
    title_en: event.title_en,
    title_ar: event.title_ar,
    description_en: event.description_en,
    description_ar: event.description_ar,
    image_url: view.imageUrl,
    location_en: event.location_en,
    location_ar: event.location_ar,
    lat: event.lat,
    lng: event.lng,
    map_url: view.mapUrl,
    currency_code: event.currency_code,
    is_free: view.isFree,
    max_per_booking: event.max_per_booking,
    has_waiting_zone: event.queue_capacity !== null,
    dates: view.dates,
    available_dates: view.bookableDates,
    tickets: view.tickets.map((ticket) => serializeTicket(ticket, event.currency_code, view.isFree)),
    fields: fields.map((field) => ({
      name: field.name,
      label_en: field.label_en,
      label_ar: field.label_ar,
      type: field.type,
      required: Boolean(field.required),
    })),
  };
}

/** An event card as the public API's list answers it. */
export function serializeEventCard(card: EventCard) {
  return {
    id: card.id,
    slug: card.slug,
    merchant: card.merchantId,
    title: card.title,
    location: card.location,
    image_url: card.imageUrl,
    currency_code: card.currency,
    is_free: card.isFree,
    from_price: toDecimalString(card.fromPrice, card.currency),
    dates: card.dates,
  };
}

/** The event's terms in the reader's language; the merchant's own (its unit's) when the event has none. */
export async function eventTerms(db: DB, event: PublicEvent, lang: Language): Promise<string> {
  const own =
    (lang === "ar" ? event.terms_ar : event.terms_en).trim() ||
    (lang === "ar" ? event.terms_en : event.terms_ar).trim();
  if (own) return own;
  const unit = await unitOf(db, event.merchant_id, event.unit_id).select(["terms_en", "terms_ar"]).executeTakeFirst();
  return ((lang === "ar" ? unit?.terms_ar : unit?.terms_en) ?? "").trim();
}

const FEEDBACK_RULE = (ip: string | null) => ({
  bucket: `event-feedback:${addressGroup(ip)}`,
  limit: 10,
  windowMs: 60 * 60_000,
});
const BOOKING_RULE = (ip: string | null) => ({
  bucket: `event-booking:${addressGroup(ip)}`,
  limit: 60,
  windowMs: 10 * 60_000,
});

const QUEUE_RULE = (ip: string | null) => ({
  bucket: `event-queue:${addressGroup(ip)}`,
  limit: 20,
  windowMs: 10 * 60_000,
});

/** Whether this address has joined waiting zones too often lately (a place each time); each call counts as one. */
export async function queueJoinThrottled(db: DB, ip: string | null): Promise<boolean> {
  const rule = QUEUE_RULE(ip);
  if (await isThrottled(db, [rule])) return true;
  await recordHits(db, [rule]);
  return false;
}

/** Whether this address has sent too many bookings lately; each call counts as one. */
export async function bookingThrottled(db: DB, ip: string | null): Promise<boolean> {
  const rule = BOOKING_RULE(ip);
  if (await isThrottled(db, [rule])) return true;
  await recordHits(db, [rule]);
  return false;
}

/** Keeps a customer's feedback on a published event; a few per hour from one address. */
export async function leaveFeedback(
  db: DB,
  input: { event: PublicEvent; feedback: FeedbackInput; ip: string | null },
): Promise<{ ok: true; id: number } | { ok: false; errors: FieldErrors }> {
  const rule = FEEDBACK_RULE(input.ip);
  if (await isThrottled(db, [rule]))
    return { ok: false, errors: { non_field_errors: ["events_public.errors.throttled"] } };
  await recordHits(db, [rule]);
  const { feedback, event } = input;
  const row = await db
    .insertInto("event_feedback")
    .values({
      merchant_id: event.merchant_id,
      event_id: event.id,
      rating: feedback.rating,
      comment: feedback.comment ?? "",
      name: feedback.name ?? "",
      email: feedback.email ?? null,
      created_at: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ok: true, id: row.id };
}

/**
 * The payment methods a paid booking of this event may use, priced for `amount` as the pay page
 * prices them: allowed by the event, enabled by the merchant, taking its currency; cash on
 * delivery never (a booking's places are held only while it is paid).
 */
export async function eventPayChoices(db: DB, event: PublicEvent, amount: number, lang: Language) {
  if (event.is_free) return [];
  const choices = await payChoicesFor(
    db,
    { merchant_id: event.merchant_id, pg_codes: event.gateway_codes, currency_code: event.currency_code },
    amount,
    lang,
  );
  return choices.filter((choice) => choice.kind !== "cod");
}
