import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Offer codes (app/domain/commerce/offer-codes.server.ts): the food section's vouchers and the
 * catalogue's discount codes become one table, `offer_codes`, each row naming the section whose
 * code it is (its key: `food_ordering`, `catalogue`); a code is the merchant's alone within its
 * section, whatever its case. The existing codes are copied with their uses, each remembering the id
 * it had in its section's table (`copied_from`): a voucher keeps its id, a discount's moves up past
 * the largest id of both tables, so an old id never names another code of its section. The orders
 * point at the copies by a new `offer_code_id`. The sections' own tables and the orders' `voucher_id` / `discount_id` stay as they
 * were, no longer written: on SQLite a column that references a table cannot be dropped without
 * rebuilding the orders' tables.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("offer_codes")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("section", "text", (c) => c.notNull())
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
    .addColumn("copied_from", "integer")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("offer_codes_merchant_code", ["merchant_id", "section", "code_lc"])
    .addCheckConstraint("offer_codes_type", sql`discount_type in ('percentage', 'fixed')`)
    .addCheckConstraint("offer_codes_amount", sql`amount >= 0 and min_total >= 0`)
    .addCheckConstraint("offer_codes_used", sql`used >= 0 and (max_uses is null or used <= max_uses)`)
    .execute();

  // A code keeps the id it had, so an id kept by an integration or a bookmark still names the same
  // code (or no code of that section): the food vouchers' ids as they were; the discounts' moved up
  // past both tables' largest id, so no stale discount id can reach another discount.
  const largest = await sql<{ food: number | string | null; catalogue: number | string | null }>`
    select (select max(id) from food_vouchers) as food, (select max(id) from catalogue_discounts) as catalogue`.execute(
    db,
  );
  const offset = Math.max(Number(largest.rows[0]?.food ?? 0), Number(largest.rows[0]?.catalogue ?? 0));
  await sql`
    insert into offer_codes (id, merchant_id, section, code, code_lc, discount_type, amount, valid_from, valid_to,
      min_total, max_uses, max_uses_per_customer, used, is_active, copied_from, created_at, updated_at)
    select id, merchant_id, 'food_ordering', code, code_lc, discount_type, amount, valid_from, valid_to,
      min_total, max_uses, max_uses_per_customer, used, is_active, id, created_at, updated_at
    from food_vouchers order by id`.execute(db);
  await sql`
    insert into offer_codes (id, merchant_id, section, code, code_lc, discount_type, amount, valid_from, valid_to,
      min_total, max_uses, max_uses_per_customer, used, is_active, copied_from, created_at, updated_at)
    select id + ${sql.lit(offset)}, merchant_id, 'catalogue', code, code_lc, discount_type, amount, valid_from, valid_to,
      min_total, max_uses, null, used, is_active, id, created_at, updated_at
    from catalogue_discounts order by id`.execute(db);
  // Postgres's sequence does not see ids written explicitly: the next code comes after the copies.
  if (engine === "postgres")
    await sql`select setval(pg_get_serial_sequence('offer_codes', 'id'), coalesce((select max(id) from offer_codes), 0) + 1, false)`.execute(
      db,
    );

  await db.schema
    .alterTable("food_orders")
    .addColumn("offer_code_id", "integer", (c) => c.references("offer_codes.id"))
    .execute();
  await sql`update food_orders set offer_code_id = voucher_id where voucher_id in (select id from food_vouchers)`.execute(db);
  await db.schema
    .createIndex("food_orders_offer_code_customer")
    .on("food_orders")
    .columns(["offer_code_id", "customer_key"])
    .execute();

  await db.schema
    .alterTable("catalogue_orders")
    .addColumn("offer_code_id", "integer", (c) => c.references("offer_codes.id"))
    .execute();
  await sql`
    update catalogue_orders set offer_code_id = discount_id + ${sql.lit(offset)}
    where discount_id in (select id from catalogue_discounts)`.execute(db);
  await db.schema.createIndex("catalogue_orders_offer_code").on("catalogue_orders").column("offer_code_id").execute();
}
