import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * Unpaid holds (app/domain/payments/unpaid-holds.server.ts): a food order remembers the address and
 * the device (its cart's token) it was placed from, and a booking the address, so that one address
 * or one device holds only a few unpaid checkouts of a merchant at once. The catalogue's orders have
 * both already (migrations 0023 and 0028).
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("food_orders").addColumn("client_address", "text").execute();
  await db.schema.alterTable("food_orders").addColumn("device_token", "text").execute();
  await db.schema.createIndex("food_orders_client_holds").on("food_orders").columns(["merchant_id", "client_address", "holds_stock"]).execute();
  await db.schema.createIndex("food_orders_device_holds").on("food_orders").columns(["merchant_id", "device_token", "holds_stock"]).execute();
  await db.schema.alterTable("bookings").addColumn("client_address", "text").execute();
  await db.schema.createIndex("bookings_client_address").on("bookings").columns(["merchant_id", "client_address"]).execute();
}
