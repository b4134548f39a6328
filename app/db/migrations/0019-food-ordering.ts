import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The food-ordering section (decision 0024): the menu (categories, items with sizes, add-ons and
 * option groups), branches with their working hours and delivery areas, vouchers and their uses,
 * carts held on the server for visitors, orders with their lines, and the menu's configuration.
 *
 * An item's `quantity` (null: unlimited) is what is left to sell; an order takes its portions by one
 * conditional update and gives them back if its payment ends unpaid. A voucher's `used` counts the
 * uses of orders not ended unpaid; a check constraint keeps it within `max_uses`.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema
    .createTable("food_categories")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("description_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image_path", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_catering", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("min_plates", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("service_charge", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("food_categories_plates", sql`min_plates >= 0 and service_charge >= 0`)
    .execute();
  await db.schema.createIndex("food_categories_merchant").on("food_categories").columns(["merchant_id", "position"]).execute();

  await db.schema
    .createTable("food_items")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("food_categories.id"))
    .addColumn("sku", "text")
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("description_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_ar", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image_path", "text")
    .addColumn("price", "bigint", (c) => c.notNull())
    .addColumn("discounted_price", "bigint")
    .addColumn("quantity", "integer")
    .addColumn("is_available", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_promoted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("food_items_price", sql`price >= 0 and (discounted_price is null or (discounted_price >= 0 and discounted_price <= price))`)
    .addCheckConstraint("food_items_quantity", sql`quantity is null or quantity >= 0`)
    .execute();
  await db.schema.createIndex("food_items_category").on("food_items").columns(["category_id", "position"]).execute();
  await db.schema.createIndex("food_items_merchant").on("food_items").columns(["merchant_id", "sku"]).execute();

  await db.schema
    .createTable("food_item_sizes")
    .addColumn("id", id.type, id.build)
    .addColumn("item_id", "integer", (c) => c.notNull().references("food_items.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("price", "bigint", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("food_item_sizes_price", sql`price >= 0`)
    .execute();
  await db.schema.createIndex("food_item_sizes_item").on("food_item_sizes").column("item_id").execute();

  await db.schema
    .createTable("food_item_addons")
    .addColumn("id", id.type, id.build)
    .addColumn("item_id", "integer", (c) => c.notNull().references("food_items.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("price", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("food_item_addons_price", sql`price >= 0`)
    .execute();
  await db.schema.createIndex("food_item_addons_item").on("food_item_addons").column("item_id").execute();

  await db.schema
    .createTable("food_option_groups")
    .addColumn("id", id.type, id.build)
    .addColumn("item_id", "integer", (c) => c.notNull().references("food_items.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("min_choices", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_choices", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("food_option_groups_limits", sql`min_choices >= 0 and max_choices >= 1 and min_choices <= max_choices`)
    .execute();
  await db.schema.createIndex("food_option_groups_item").on("food_option_groups").column("item_id").execute();

  await db.schema
    .createTable("food_option_choices")
    .addColumn("id", id.type, id.build)
    .addColumn("group_id", "integer", (c) => c.notNull().references("food_option_groups.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("price", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("food_option_choices_price", sql`price >= 0`)
    .execute();
  await db.schema.createIndex("food_option_choices_group").on("food_option_choices").column("group_id").execute();

  await db.schema
    .createTable("food_branches")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("address_html", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image_path", "text")
    .addColumn("min_order", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("delivery_minutes", "integer", (c) => c.notNull().defaultTo(45))
    .addColumn("lat", "real")
    .addColumn("lng", "real")
    .addColumn("offers_pickup", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("offers_delivery", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("offers_catering", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("food_branches_merchant").on("food_branches").columns(["merchant_id", "position"]).execute();

  await db.schema
    .createTable("food_branch_hours")
    .addColumn("id", id.type, id.build)
    .addColumn("branch_id", "integer", (c) => c.notNull().references("food_branches.id"))
    .addColumn("weekday", "integer", (c) => c.notNull())
    .addColumn("opens", "text", (c) => c.notNull())
    .addColumn("closes", "text", (c) => c.notNull())
    .addCheckConstraint("food_branch_hours_weekday", sql`weekday between 1 and 7`)
    .execute();
  await db.schema.createIndex("food_branch_hours_branch").on("food_branch_hours").columns(["branch_id", "weekday"]).execute();

  await db.schema
    .createTable("food_delivery_areas")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("branch_id", "integer", (c) => c.notNull().references("food_branches.id"))
    .addColumn("area", "text", (c) => c.notNull())
    .addColumn("zone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("charge", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("min_order", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint("food_delivery_areas_branch_area", ["branch_id", "area"])
    .addCheckConstraint("food_delivery_areas_money", sql`charge >= 0 and min_order >= 0`)
    .execute();

  await db.schema
    .createTable("food_vouchers")
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
    .addColumn("max_uses_per_customer", "integer")
    .addColumn("used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("food_vouchers_merchant_code", ["merchant_id", "code_lc"])
    .addCheckConstraint("food_vouchers_type", sql`discount_type in ('percentage', 'fixed')`)
    .addCheckConstraint("food_vouchers_used", sql`used >= 0 and (max_uses is null or used <= max_uses)`)
    .execute();

  await db.schema
    .createTable("food_orders")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("branch_id", "integer", (c) => c.notNull().references("food_branches.id"))
    .addColumn("delivery_type", "text", (c) => c.notNull())
    .addColumn("delivery_area_id", "integer", (c) => c.references("food_delivery_areas.id"))
    .addColumn("scheduled_for", timestamp)
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("subtotal", "bigint", (c) => c.notNull())
    .addColumn("discount", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("delivery_charge", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("service_charge", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "bigint", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("voucher_id", "integer", (c) => c.references("food_vouchers.id"))
    .addColumn("customer_name", "text", (c) => c.notNull())
    .addColumn("customer_email", "text")
    .addColumn("customer_phone", "text", (c) => c.notNull())
    .addColumn("customer_key", "text", (c) => c.notNull())
    .addColumn("address", "text")
    .addColumn("lat", "real")
    .addColumn("lng", "real")
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("transaction_id", "text", (c) => c.references("transactions.id"))
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("holds_stock", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("feedback_rating", "integer")
    .addColumn("feedback_comment", "text")
    .addColumn("seen_at", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("food_orders_type", sql`delivery_type in ('pickup', 'delivery', 'catering')`)
    .addCheckConstraint(
      "food_orders_status",
      sql`status in ('pending_payment', 'new', 'accepted', 'preparing', 'ready', 'out_for_delivery', 'picked_up', 'delivered', 'canceled')`,
    )
    .execute();
  await db.schema.createIndex("food_orders_merchant_created").on("food_orders").columns(["merchant_id", "created_at"]).execute();
  await db.schema.createIndex("food_orders_transaction").on("food_orders").column("transaction_id").execute();
  await db.schema.createIndex("food_orders_voucher_customer").on("food_orders").columns(["voucher_id", "customer_key"]).execute();

  await db.schema
    .createTable("food_order_lines")
    .addColumn("id", id.type, id.build)
    .addColumn("order_id", "integer", (c) => c.notNull().references("food_orders.id"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("food_items.id"))
    .addColumn("category_id", "integer", (c) => c.notNull())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("size_id", "integer")
    .addColumn("size_en", "text")
    .addColumn("size_ar", "text")
    .addColumn("add_ons", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("options", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("special_instructions", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("unit_price", "bigint", (c) => c.notNull())
    .addColumn("line_total", "bigint", (c) => c.notNull())
    .addCheckConstraint("food_order_lines_quantity", sql`quantity > 0`)
    .execute();
  await db.schema.createIndex("food_order_lines_order").on("food_order_lines").column("order_id").execute();

  await db.schema
    .createTable("food_carts")
    .addColumn("token", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("food_carts_updated").on("food_carts").column("updated_at").execute();

  await db.schema
    .createTable("food_settings")
    .addColumn("merchant_id", "integer", (c) => c.primaryKey().references("merchants.id"))
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
}
