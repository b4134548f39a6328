import { randomBytes } from "node:crypto";
import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { now } from "~/lib/clock.server";
import type { BookingItemStatus } from "~/db/schema";
import { newMemberNumber } from "~/sections/event/domain/tickets.server";

const stamp = () => new Date().toISOString();

/** Today in Kuwait (by the test's clock): a place is admitted only on its own date. */
export const doorToday = () => DateTime.fromJSDate(now()).setZone("Asia/Kuwait").toFormat("yyyy-MM-dd");

/** A published event of the merchant with one ticket (18:00–22:00) on one date (today unless told), inserted as rows. */
export async function insertCheckinEvent(
  db: DB,
  merchantId: number,
  options: { title?: string; date?: string; status?: "published" | "draft" | "closed" } = {},
) {
  const slug = `door-${randomBytes(4).toString("hex")}`;
  const title = options.title ?? `Door night ${slug}`;
  const event = await db
    .insertInto("events")
    .values({
      merchant_id: merchantId,
      unit_id: null,
      slug,
      title_en: title,
      title_ar: `ليلة ${title}`,
      description_en: "",
      description_ar: "",
      image_path: null,
      location_en: "",
      location_ar: "",
      lat: null,
      lng: null,
      currency_code: "KWD",
      is_free: 1,
      terms_en: "",
      terms_ar: "",
      status: options.status ?? "published",
      gateway_codes: "",
      hold_minutes: 15,
      max_per_booking: 10,
      queue_capacity: null,
      created_by: null,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const ticket = await db
    .insertInto("event_tickets")
    .values({
      merchant_id: merchantId,
      event_id: event.id,
      name_en: "Standing",
      name_ar: "وقوف",
      price: 0,
      start_time: "18:00",
      end_time: "22:00",
      quantity: 100,
      position: 1,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const date = options.date ?? doorToday();
  const ticketDate = await db
    .insertInto("event_ticket_dates")
    .values({
      merchant_id: merchantId,
      event_id: event.id,
      ticket_id: ticket.id,
      event_date: date,
      quantity: 100,
      taken: 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: event.id, slug, title, ticketId: ticket.id, ticketDateId: ticketDate.id, date };
}

/** A booking of `quantity` places on the event, its item in `status`; answers the places' numbers. */
export async function insertCheckinBooking(
  db: DB,
  merchantId: number,
  event: Awaited<ReturnType<typeof insertCheckinEvent>>,
  options: { quantity?: number; status?: BookingItemStatus; firstName?: string; lastName?: string } = {},
) {
  const quantity = options.quantity ?? 1;
  const booking = await db
    .insertInto("bookings")
    .values({
      uuid: randomBytes(16).toString("hex"),
      merchant_id: merchantId,
      event_id: event.id,
      ticket_id: event.ticketId,
      event_date: event.date,
      email: "guest@example.com",
      email_lc: "guest@example.com",
      customer_first_name: options.firstName ?? "Noura",
      customer_last_name: options.lastName ?? "Al-Sabah",
      customer_phone: null,
      extra: "{}",
      attachment_path: null,
      attachment_name: null,
      lang: "en",
      created_by: null,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const item = await db
    .insertInto("booking_items")
    .values({
      merchant_id: merchantId,
      booking_id: booking.id,
      ticket_date_id: event.ticketDateId,
      quantity,
      amount: 0,
      status: options.status ?? "paid",
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const numbers = Array.from({ length: quantity }, () => newMemberNumber());
  await db
    .insertInto("booking_members")
    .values(
      numbers.map((number, index) => ({
        merchant_id: merchantId,
        event_id: event.id,
        booking_id: booking.id,
        item_id: item.id,
        number,
        position: index + 1,
      })),
    )
    .execute();
  await db
    .updateTable("event_ticket_dates")
    .set((eb) => ({ taken: eb("taken", "+", quantity) }))
    .where("id", "=", event.ticketDateId)
    .execute();
  return { bookingId: booking.id, numbers };
}
