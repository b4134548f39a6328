import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The customer-payment section (decision 0026): the merchant's collector pages (a public page where a
 * customer types the amount and the details the merchant asks for), their payment restrictions
 * (merchant-wide, or a collector's own that replace them whole), and one row per payment made
 * through a collector, keyed by the customer and their Kuwait day, which the daily cap counts.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema
    .createTable("customer_payment_collectors")
    .addColumn("id", id.type, id.build)
    // Unguessable: the public page's address.
    .addColumn("public_id", "text", (c) => c.notNull().unique())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("unit_id", "integer", (c) => c.references("units.id"))
    .addColumn("title_en", "text", (c) => c.notNull())
    .addColumn("title_ar", "text", (c) => c.notNull())
    .addColumn("description_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_ar", "text", (c) => c.notNull().defaultTo(""))
    // Each of the four standard fields: off, optional or required.
    .addColumn("name_field", "text", (c) => c.notNull().defaultTo("required"))
    .addColumn("email_field", "text", (c) => c.notNull().defaultTo("optional"))
    .addColumn("phone_field", "text", (c) => c.notNull().defaultTo("optional"))
    .addColumn("reference_field", "text", (c) => c.notNull().defaultTo("off"))
    // JSON list of free-text fields: [{"name", "label_en", "label_ar", "required"}].
    .addColumn("text_fields", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("customer_payment_collectors_merchant").on("customer_payment_collectors").columns(["merchant_id", "id"]).execute();

  await db.schema
    .createTable("customer_payment_restrictions")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    // Null: the merchant's own, for every collector without restrictions of its own.
    .addColumn("collector_id", "integer", (c) => c.references("customer_payment_collectors.id"))
    // Comma-separated; empty: the merchant's default currency / every gateway but cash on delivery.
    .addColumn("currencies", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("gateways", "text", (c) => c.notNull().defaultTo(""))
    // JSON by currency: {"KWD": {"min": 1000, "max": 500000, "daily_cap": 1000000}} in minor units, null for none.
    .addColumn("limits", "text", (c) => c.notNull().defaultTo("{}"))
    // Kuwait dates (YYYY-MM-DD), both days included; null: open-ended.
    .addColumn("active_from", "text")
    .addColumn("active_to", "text")
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("customer_payment_restrictions_owner").on("customer_payment_restrictions").columns(["merchant_id", "collector_id"]).execute();

  await db.schema
    .createTable("customer_payments")
    .addColumn("transaction_id", "text", (c) => c.primaryKey().references("transactions.id"))
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("collector_id", "integer", (c) => c.notNull().references("customer_payment_collectors.id"))
    // The customer as the daily cap knows them: their phone (E.164) or their e-mail in lower case; null when neither was asked.
    .addColumn("customer_key", "text")
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    // The Kuwait day of the payment (YYYY-MM-DD).
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("customer_payments_customer_day").on("customer_payments").columns(["merchant_id", "customer_key", "day"]).execute();
  await db.schema.createIndex("customer_payments_collector").on("customer_payments").columns(["collector_id", "created_at"]).execute();
}
