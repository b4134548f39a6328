import type { DB } from "~/db/database.server";
import type { MailRow } from "~/domain/messaging/mail-templates.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { env } from "~/lib/env.server";
import { money, named } from "~/lib/outcome";

export const BOOKING_MAIL = "event_booking";
export const TICKETS_ATTACHMENT = "event_tickets";

/** Where a customer opens their tickets: the public tickets page of the booking (its uuid is the key). */
export function ticketsPath(lang: "en" | "ar", bookingId: number, uuid: string) {
  return `/${lang}/events/tickets/${bookingId}/${uuid}`;
}

/**
 * The booking e-mail in the customer's language: the event, date, slot and places, a link to the
 * tickets, and the tickets' PDF (one QR code per paid place) attached. Places still waiting for
 * payment are listed with the link to pay them. Written in the caller's database transaction, so the
 * mail exists exactly when what it tells does.
 */
export async function queueBookingMail(trx: DB, bookingId: number) {
  const booking = await trx.selectFrom("bookings").selectAll().where("id", "=", bookingId).executeTakeFirstOrThrow();
  const event = await trx.selectFrom("events").selectAll().where("id", "=", booking.event_id).executeTakeFirstOrThrow();
  const ticket = await trx
    .selectFrom("event_tickets")
    .selectAll()
    .where("id", "=", booking.ticket_id)
    .executeTakeFirstOrThrow();
  const items = await trx
    .selectFrom("booking_items")
    .select(["quantity", "status", "amount", "transaction_id"])
    .where("booking_id", "=", bookingId)
    .execute();
  const paid = items.filter((item) => item.status === "paid").reduce((sum, item) => sum + item.quantity, 0);
  const pending = items.filter((item) => item.status === "pending");
  const base = (env().BASE_URL ?? "").replace(/\/$/, "");
  const lang = booking.lang;
  const name = [booking.customer_first_name, booking.customer_last_name].filter(Boolean).join(" ");
  const pendingTransaction = pending.find((item) => item.transaction_id)?.transaction_id;
  const rows: MailRow[] = [
    ["event.mail.booking_no", String(booking.id)],
    ["event.mail.date", booking.event_date],
    ["event.mail.slot", `${ticket.start_time}–${ticket.end_time}`],
    ["event.mail.ticket", lang === "ar" ? ticket.name_ar : ticket.name_en],
    ["event.mail.places", String(paid)],
  ];
  if (pending.length > 0) {
    const due = pending.reduce((sum, item) => sum + item.amount, 0);
    rows.push(
      ["event.mail.places_pending", String(pending.reduce((sum, item) => sum + item.quantity, 0))],
      ["event.mail.amount_due", money(due, event.currency_code)],
    );
  }
  await queueMail(trx, {
    merchantId: booking.merchant_id,
    unitId: event.unit_id,
    to: booking.email,
    template: BOOKING_MAIL,
    lang,
    params: {
      name: name || null,
      event: named(event.title_en, event.title_ar),
      link:
        paid > 0
          ? `${base}${ticketsPath(lang, booking.id, booking.uuid)}`
          : pendingTransaction
            ? `${base}/${lang}/pay/${pendingTransaction}`
            : null,
    },
    rows,
    attachments:
      paid > 0
        ? [{ type: TICKETS_ATTACHMENT, ref: `${booking.id}:${booking.uuid}`, filename: `tickets-${booking.id}.pdf` }]
        : [],
  });
}
