import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";

type TicketSpec = { name?: string; price?: number; start?: string; end?: string; dates: Record<string, number> };

/**
 * An event of the merchant written straight into its tables (published, free unless a ticket has a
 * price), with its tickets, the places each has per date and the event's own fields.
 */
export async function insertEvent(
  db: DB,
  merchantId: number,
  input: {
    slug: string;
    title?: string;
    isFree?: boolean;
    tickets: TicketSpec[];
    fields?: {
      name: string;
      label_en: string;
      label_ar: string;
      type?: "text" | "phone" | "attachment";
      required?: boolean;
    }[];
  },
) {
  const at = nowIso();
  const event = await db
    .insertInto("events")
    .values({
      merchant_id: merchantId,
      unit_id: null,
      slug: input.slug,
      title_en: input.title ?? `Event ${input.slug}`,
      title_ar: `فعالية ${input.slug}`,
      description_en: "",
      description_ar: "",
      image_path: null,
      location_en: "",
      location_ar: "",
      lat: null,
      lng: null,
      terms_en: "",
      terms_ar: "",
      hold_minutes: 15,
      max_per_booking: 10,
      queue_capacity: null,
      currency_code: "KWD",
      is_free: input.isFree === false ? 0 : 1,
      status: "published",
      gateway_codes: "",
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const tickets: { id: number; dates: Record<string, number> }[] = [];
  for (const [position, spec] of input.tickets.entries()) {
    const total = Math.max(0, ...Object.values(spec.dates));
    const ticket = await db
      .insertInto("event_tickets")
      .values({
        merchant_id: merchantId,
        event_id: event.id,
        name_en: spec.name ?? `Ticket ${position + 1}`,
        name_ar: `تذكرة ${position + 1}`,
        price: spec.price ?? 0,
        start_time: spec.start ?? "18:00",
        end_time: spec.end ?? "22:00",
        quantity: total,
        position,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const dates: Record<string, number> = {};
    for (const [date, quantity] of Object.entries(spec.dates)) {
      const row = await db
        .insertInto("event_ticket_dates")
        .values({ merchant_id: merchantId, event_id: event.id, ticket_id: ticket.id, event_date: date, quantity })
        .returning("id")
        .executeTakeFirstOrThrow();
      dates[date] = row.id;
    }
    tickets.push({ id: ticket.id, dates });
  }
  for (const [position, field] of (input.fields ?? []).entries()) {
    await db
      .insertInto("event_fields")
      .values({
        merchant_id: merchantId,
        event_id: event.id,
        name: field.name,
        label_en: field.label_en,
        label_ar: field.label_ar,
        type: field.type ?? "text",
        required: field.required ? 1 : 0,
        position,
      })
      .execute();
  }
  return { id: event.id, slug: input.slug, tickets };
}

/** Marks some of a booking's places scanned at the door. */
export async function scanPlaces(db: DB, bookingId: number, count: number) {
  const members = await db
    .selectFrom("booking_members")
    .select("id")
    .where("booking_id", "=", bookingId)
    .where("scanned_at", "is", null)
    .orderBy("position")
    .limit(count)
    .execute();
  if (members.length === 0) return;
  await db
    .updateTable("booking_members")
    .set({ scanned_at: nowIso() })
    .where(
      "id",
      "in",
      members.map((member) => member.id),
    )
    .execute();
}

/** Places taken of a ticket's date. */
export async function placesTaken(db: DB, ticketDateId: number) {
  const row = await db
    .selectFrom("event_ticket_dates")
    .select("taken")
    .where("id", "=", ticketDateId)
    .executeTakeFirstOrThrow();
  return row.taken;
}
