import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { BookingSchema } from "~/sections/event/domain/booking-schema";
import { createBooking } from "~/sections/event/domain/bookings.server";

let made = 0;

/**
 * A published event of the merchant with one ticket (18:00–22:00) on one date far ahead, free or
 * paid (5.000 KWD a place, through the KNET sandbox), written as rows, as the event editor would.
 */
export async function insertTicketedEvent(
  db: DB,
  merchantId: number,
  options: { free: boolean; places?: number; date?: string },
) {
  made += 1;
  const at = new Date().toISOString();
  const date = options.date ?? "2031-12-20";
  const places = options.places ?? 20;
  const unit = await db
    .selectFrom("units")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .orderBy("id")
    .executeTakeFirst();
  const event = await db
    .insertInto("events")
    .values({
      merchant_id: merchantId,
      unit_id: unit?.id ?? null,
      slug: `tickets-event-${merchantId}-${made}`,
      title_en: "Winter Concert",
      title_ar: "حفل الشتاء",
      description_en: "",
      description_ar: "",
      image_path: null,
      lat: null,
      lng: null,
      terms_en: "",
      terms_ar: "",
      hold_minutes: 15,
      max_per_booking: 10,
      queue_capacity: null,
      created_by: null,
      location_en: "Kuwait City, Arabian Gulf Street",
      location_ar: "مدينة الكويت، شارع الخليج العربي",
      currency_code: "KWD",
      is_free: options.free ? 1 : 0,
      status: "published",
      gateway_codes: options.free ? "" : "knet-sandbox",
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const ticket = await db
    .insertInto("event_tickets")
    .values({
      merchant_id: merchantId,
      event_id: event.id,
      name_en: "Standard",
      name_ar: "عادية",
      price: options.free ? 0 : 5000,
      start_time: "18:00",
      end_time: "22:00",
      quantity: places,
      position: 1,
      is_active: 1,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("event_ticket_dates")
    .values({
      merchant_id: merchantId,
      event_id: event.id,
      ticket_id: ticket.id,
      event_date: date,
      quantity: places,
      taken: 0,
    })
    .execute();
  return { eventId: event.id, ticketId: ticket.id, date };
}

/** A customer's booking of `quantity` places, as the public booking API makes it. */
export async function bookPlaces(
  db: DB,
  event: { eventId: number; ticketId: number; date: string },
  input: { quantity: number; lang?: Language; email?: string },
) {
  const slug = (await db.selectFrom("events").select("slug").where("id", "=", event.eventId).executeTakeFirstOrThrow())
    .slug;
  const outcome = await createBooking(db, {
    request: BookingSchema.parse({
      event: slug,
      ticket: event.ticketId,
      event_date: event.date,
      quantity: input.quantity,
      email: input.email ?? "guest@example.com",
      customer_first_name: input.lang === "ar" ? "نورة" : "Noura",
      customer_last_name: input.lang === "ar" ? "الصباح" : "Al-Sabah",
    }),
    lang: input.lang ?? "en",
    baseUrl: "https://pay.example",
  });
  if (!outcome.ok) throw new Error(`could not book: ${JSON.stringify(outcome.errors)}`);
  return outcome.booking;
}
