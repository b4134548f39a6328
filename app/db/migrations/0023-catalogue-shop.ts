import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * The catalogue shop's selling side (decision 0025): an order remembers the visitor's cart it was
 * placed from, so that its payment empties that cart, and the sweep finds unpaid orders whose hold
 * is over by their status and hold end.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("catalogue_orders").addColumn("cart_token", "text").execute();
  await db.schema.createIndex("catalogue_orders_pending").on("catalogue_orders").columns(["status", "hold_until"]).execute();
}
