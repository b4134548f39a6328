import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The events section (decision 0023): events with their tickets and the places each ticket has on
 * each of its dates, bookings with their items (what was bought, and its payment) and members (one
 * per place: the QR ticket staff scan), the scans made at the door, customers' feedback and the
 * waiting zone of a busy on-sale. Mails may carry files made when they are read or sent.
 *
 * A place is counted in `event_ticket_dates.taken` while the item holding it is pending or paid;
 * the check constraint is the last guard against overselling: no write may take more than there is.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema
    .createTable("events")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("unit_id", "integer", (c) => c.references("units.id"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title_en", "text", (c) => c.notNull())
    .addColumn("title_ar", "text", (c) => c.notNull())
    .addColumn("description_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image_path", "text")
    .addColumn("location_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("location_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("lat", "real")
    .addColumn("lng", "real")
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("is_free", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("terms_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("terms_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
    .addColumn("gateway_codes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("hold_minutes", "integer", (c) => c.notNull().defaultTo(15))
    .addColumn("max_per_booking", "integer", (c) => c.notNull().defaultTo(10))
    .addColumn("queue_capacity", "integer")
    .addColumn("created_by", "integer", (c) => c.references("users.id"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("events_status", sql`status in ('draft', 'published', 'closed')`)
    .addCheckConstraint("events_hold_minutes", sql`hold_minutes between 1 and 120`)
    .addCheckConstraint("events_max_per_booking", sql`max_per_booking between 1 and 100`)
    .execute();
  await db.schema.createIndex("events_merchant").on("events").columns(["merchant_id", "status"]).execute();

  await db.schema
    .createTable("event_fields")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("label_en", "text", (c) => c.notNull())
    .addColumn("label_ar", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("required", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull())
    .addUniqueConstraint("event_fields_event_name", ["event_id", "name"])
    .addCheckConstraint("event_fields_type", sql`type in ('text', 'phone', 'attachment')`)
    .execute();

  await db.schema
    .createTable("event_tickets")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("price", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("start_time", "text", (c) => c.notNull())
    .addColumn("end_time", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addCheckConstraint("event_tickets_price", sql`price >= 0`)
    .addCheckConstraint("event_tickets_quantity", sql`quantity >= 0`)
    .execute();
  await db.schema.createIndex("event_tickets_event").on("event_tickets").columns(["event_id", "position"]).execute();

  await db.schema
    .createTable("event_ticket_dates")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("ticket_id", "integer", (c) => c.notNull().references("event_tickets.id"))
    .addColumn("event_date", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("taken", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("event_ticket_dates_ticket_date", ["ticket_id", "event_date"])
    .addCheckConstraint("event_ticket_dates_taken", sql`taken >= 0 and taken <= quantity`)
    .execute();

  await db.schema
    .createTable("bookings")
    .addColumn("id", id.type, id.build)
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("ticket_id", "integer", (c) => c.notNull().references("event_tickets.id"))
    .addColumn("event_date", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_lc", "text", (c) => c.notNull())
    .addColumn("customer_first_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("customer_last_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("customer_phone", "text")
    .addColumn("extra", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("attachment_path", "text")
    .addColumn("attachment_name", "text")
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("created_by", "integer", (c) => c.references("users.id"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("bookings_merchant_created").on("bookings").columns(["merchant_id", "created_at"]).execute();
  await db.schema.createIndex("bookings_event_date").on("bookings").columns(["event_id", "event_date"]).execute();

  await db.schema
    .createTable("booking_items")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("booking_id", "integer", (c) => c.notNull().references("bookings.id"))
    .addColumn("ticket_date_id", "integer", (c) => c.notNull().references("event_ticket_dates.id"))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("transaction_id", "text", (c) => c.references("transactions.id"))
    .addColumn("hold_expires_at", timestamp)
    .addColumn("note", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("booking_items_status", sql`status in ('pending', 'paid', 'cancel')`)
    .addCheckConstraint("booking_items_quantity", sql`quantity > 0`)
    .execute();
  await db.schema.createIndex("booking_items_booking").on("booking_items").column("booking_id").execute();
  await db.schema.createIndex("booking_items_transaction").on("booking_items").column("transaction_id").execute();
  await db.schema.createIndex("booking_items_hold").on("booking_items").columns(["status", "hold_expires_at"]).execute();

  await db.schema
    .createTable("booking_members")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("booking_id", "integer", (c) => c.notNull().references("bookings.id"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("booking_items.id"))
    .addColumn("number", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("scanned_at", timestamp)
    .addColumn("scanned_by", "integer", (c) => c.references("users.id"))
    .addUniqueConstraint("booking_members_event_number", ["event_id", "number"])
    .execute();
  await db.schema.createIndex("booking_members_booking").on("booking_members").column("booking_id").execute();

  await db.schema
    .createTable("event_scans")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("member_id", "integer", (c) => c.references("booking_members.id"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id"))
    .addColumn("offline", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("device_scanned_at", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("event_scans_event").on("event_scans").columns(["event_id", "created_at"]).execute();

  await db.schema
    .createTable("event_feedback")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("rating", "integer", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("event_feedback_rating", sql`rating between 1 and 5`)
    .execute();

  await db.schema
    .createTable("event_queue")
    .addColumn("id", id.type, id.build)
    .addColumn("event_id", "integer", (c) => c.notNull().references("events.id"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("admitted_at", timestamp)
    .addColumn("last_seen_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("event_queue_event").on("event_queue").columns(["event_id", "id"]).execute();

  // Files a mail carries, made from what they name when the mail is read or sent (the tickets' PDF).
  await db.schema.alterTable("outgoing_mail").addColumn("attachments", "text").execute();
}
