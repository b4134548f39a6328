import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { now, nowIso } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";

/** Today's date and the time of day in Kuwait, where the events happen. */
export function kuwaitNow(): { date: string; time: string } {
  const here = DateTime.fromJSDate(now()).setZone(DISPLAY_ZONE);
  return { date: here.toFormat("yyyy-MM-dd"), time: here.toFormat("HH:mm") };
}

/** A date is offered when it is still to come: a later day, or today before the ticket's start hour (public spec §5). */
export function isOffered(date: string, startTime: string, at = kuwaitNow()) {
  return date > at.date || (date === at.date && at.time < startTime);
}

export type DateAvailability = { status: "available" | "soldOut"; remaining_quantity: number };

export type TicketAvailability = {
  id: number;
  name_en: string;
  name_ar: string;
  price: number;
  start_time: string;
  end_time: string;
  quantity: number;
  /** Every date of the ticket, past ones included. */
  dates: string[];
  /** Per date still offered: whether places are left, and how many (public spec §3). */
  remaining_qty_per_date: Record<string, DateAvailability>;
};

/** Each active ticket of an event with the places left on each date still offered, in the merchant's order. */
export async function ticketAvailability(db: DB, eventId: number): Promise<TicketAvailability[]> {
  const tickets = await db
    .selectFrom("event_tickets")
    .select(["id", "name_en", "name_ar", "price", "start_time", "end_time", "quantity"])
    .where("event_id", "=", eventId)
    .where("is_active", "=", 1)
    .orderBy("position")
    .orderBy("id")
    .execute();
  if (tickets.length === 0) return [];
  const dates = await db
    .selectFrom("event_ticket_dates")
    .select(["id", "ticket_id", "event_date", "quantity", "taken"])
    .where("event_id", "=", eventId)
    .orderBy("event_date")
    .execute();
  // Holds whose time is up count as free already, before the sweep (or the next booking) releases them.
  const lapsed = await db
    .selectFrom("booking_items")
    .innerJoin("event_ticket_dates", "event_ticket_dates.id", "booking_items.ticket_date_id")
    .select(["booking_items.ticket_date_id", (eb) => eb.fn.sum<number>("booking_items.quantity").as("places")])
    .where("event_ticket_dates.event_id", "=", eventId)
    .where("booking_items.status", "=", "pending")
    .where("booking_items.hold_expires_at", "<", nowIso())
    .groupBy("booking_items.ticket_date_id")
    .execute();
  const lapsedOf = new Map(lapsed.map((row) => [row.ticket_date_id, Number(row.places)]));
  const at = kuwaitNow();
  return tickets.map((ticket) => {
    const own = dates.filter((row) => row.ticket_id === ticket.id);
    const remaining: Record<string, DateAvailability> = {};
    for (const row of own) {
      if (!isOffered(row.event_date, ticket.start_time, at)) continue;
      const left = Math.max(0, row.quantity - row.taken + (lapsedOf.get(row.id) ?? 0));
      remaining[row.event_date] = { status: left > 0 ? "available" : "soldOut", remaining_quantity: left };
    }
    return { ...ticket, dates: own.map((row) => row.event_date), remaining_qty_per_date: remaining };
  });
}

/** The dates of an event on which some ticket still has places, in order (the Create page's and registration's choices). */
export function datesWithPlaces(tickets: readonly TicketAvailability[]): string[] {
  const dates = new Set<string>();
  for (const ticket of tickets)
    for (const [date, left] of Object.entries(ticket.remaining_qty_per_date))
      if (left.remaining_quantity > 0) dates.add(date);
  return [...dates].sort();
}
