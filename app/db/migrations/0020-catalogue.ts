import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The catalogue section (decision 0025): a merchant's products with their images, the stores that
 * carry them, discount codes, the shop's configuration and banner, visitors' carts held on the
 * server, and orders with their lines.
 *
 * A product's `inventory` (null: unlimited) is what is left to sell: an order reserves its units by
 * one conditional update when the customer checks out and gives them back, once, if its payment
 * ends unpaid (`holds_stock` is cleared by one conditional update). A discount's `used` counts the
 * uses of orders not ended unpaid; a check constraint keeps it within `max_uses`.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema
    .createTable("catalogue_products")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("unit_id", "integer", (c) => c.references("units.id"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("sku", "text")
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("description_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price", "bigint", (c) => c.notNull())
    .addColumn("discounted_price", "bigint")
    .addColumn("inventory", "integer")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("catalogue_products_merchant_slug", ["merchant_id", "slug"])
    .addCheckConstraint("catalogue_products_price", sql`price >= 0 and (discounted_price is null or (discounted_price >= 0 and discounted_price <= price))`)
    .addCheckConstraint("catalogue_products_inventory", sql`inventory is null or inventory >= 0`)
    .execute();
  await db.schema.createIndex("catalogue_products_listing").on("catalogue_products").columns(["merchant_id", "is_active", "position"]).execute();

  await db.schema
    .createTable("catalogue_product_images")
    .addColumn("id", id.type, id.build)
    .addColumn("product_id", "integer", (c) => c.notNull().references("catalogue_products.id"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("catalogue_product_images_product").on("catalogue_product_images").columns(["product_id", "position"]).execute();

  await db.schema
    .createTable("catalogue_stores")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("address_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("address_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("phone", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("catalogue_stores_merchant").on("catalogue_stores").columns(["merchant_id", "position"]).execute();

  // A store with no rows here carries every product; with rows, only those.
  await db.schema
    .createTable("catalogue_store_products")
    .addColumn("store_id", "integer", (c) => c.notNull().references("catalogue_stores.id"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("catalogue_products.id"))
    .addPrimaryKeyConstraint("catalogue_store_products_pk", ["store_id", "product_id"])
    .execute();

  await db.schema
    .createTable("catalogue_discounts")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("code_lc", "text", (c) => c.notNull())
    .addColumn("discount_type", "text", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("valid_from", timestamp)
    .addColumn("valid_to", timestamp)
    .addColumn("min_total", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("max_uses", "integer")
    .addColumn("used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("catalogue_discounts_merchant_code", ["merchant_id", "code_lc"])
    .addCheckConstraint("catalogue_discounts_type", sql`discount_type in ('percentage', 'fixed')`)
    .addCheckConstraint("catalogue_discounts_amount", sql`amount >= 0 and min_total >= 0`)
    .addCheckConstraint("catalogue_discounts_used", sql`used >= 0 and (max_uses is null or used <= max_uses)`)
    .execute();

  await db.schema
    .createTable("catalogue_orders")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("subtotal", "bigint", (c) => c.notNull())
    .addColumn("discount", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "bigint", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("discount_id", "integer", (c) => c.references("catalogue_discounts.id"))
    .addColumn("store_id", "integer", (c) => c.references("catalogue_stores.id"))
    .addColumn("customer_name", "text", (c) => c.notNull())
    .addColumn("customer_email", "text")
    .addColumn("customer_phone", "text")
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("transaction_id", "text", (c) => c.references("transactions.id"))
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("holds_stock", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("hold_until", timestamp, (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("catalogue_orders_status", sql`status in ('pending_payment', 'paid', 'canceled')`)
    .addCheckConstraint("catalogue_orders_money", sql`subtotal >= 0 and discount >= 0 and total >= 0`)
    .execute();
  await db.schema.createIndex("catalogue_orders_merchant_created").on("catalogue_orders").columns(["merchant_id", "created_at"]).execute();
  await db.schema.createIndex("catalogue_orders_transaction").on("catalogue_orders").column("transaction_id").execute();
  await db.schema.createIndex("catalogue_orders_holds").on("catalogue_orders").columns(["holds_stock", "hold_until"]).execute();

  await db.schema
    .createTable("catalogue_order_lines")
    .addColumn("id", id.type, id.build)
    .addColumn("order_id", "integer", (c) => c.notNull().references("catalogue_orders.id"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("catalogue_products.id"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("sku", "text")
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("unit_price", "bigint", (c) => c.notNull())
    .addColumn("line_total", "bigint", (c) => c.notNull())
    .addCheckConstraint("catalogue_order_lines_quantity", sql`quantity > 0`)
    .execute();
  await db.schema.createIndex("catalogue_order_lines_order").on("catalogue_order_lines").column("order_id").execute();

  await db.schema
    .createTable("catalogue_carts")
    .addColumn("token", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("catalogue_carts_updated").on("catalogue_carts").column("updated_at").execute();

  // The shop's configuration (currency, showBanner, label_store, decimal_places, terms) and its banner (JSON).
  await db.schema
    .createTable("catalogue_settings")
    .addColumn("merchant_id", "integer", (c) => c.primaryKey().references("merchants.id"))
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
}
