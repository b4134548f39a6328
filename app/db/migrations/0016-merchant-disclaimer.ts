import type { Kysely } from "kysely";

/**
 * The merchant's own disclaimer under the pay button, per language (the administration panel's
 * profile). Null keeps the platform's words.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("merchants").addColumn("disclaimer_en", "text").execute();
  await db.schema.alterTable("merchants").addColumn("disclaimer_ar", "text").execute();
}
