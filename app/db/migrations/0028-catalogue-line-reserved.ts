import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * The catalogue's reservations (decision 0025): each order line records whether its checkout took
 * units (`reserved`: a product of limited stock) so that only those are given back, whatever the
 * merchant changes the product's stock to meanwhile. Lines written before took units whenever their
 * product was limited, so they count as reserved. An order also remembers the address it was placed
 * from (`client_address`), to cap the units one address holds at once.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("catalogue_order_lines").addColumn("reserved", "integer", (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable("catalogue_orders").addColumn("client_address", "text").execute();
  await db.schema.createIndex("catalogue_orders_client_holds").on("catalogue_orders").columns(["merchant_id", "client_address", "holds_stock"]).execute();
}
