import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * A store says itself whether it carries every product (decision 0025): before, a store without
 * rows in catalogue_store_products carried them all, so removing the last product a store had
 * chosen made it carry every product. A store that has rows chose them; any other carries all.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("catalogue_stores").addColumn("carries_all", "integer", (c) => c.notNull().defaultTo(1)).execute();
  await sql`update catalogue_stores set carries_all = 0
    where exists (select 1 from catalogue_store_products where catalogue_store_products.store_id = catalogue_stores.id)`.execute(db);
}
