import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * A merchant's settings of one section (the administration panel's Sections page), as JSON of the
 * fields the section declares. Kept when the section is uninstalled, so a reinstall finds them.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  await db.schema
    .createTable("section_settings")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("section_settings_pk", ["merchant_id", "section"])
    .execute();
}
