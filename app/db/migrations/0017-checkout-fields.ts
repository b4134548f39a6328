import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Fields a merchant adds to the pay page of a section (a civil ID, a student number): what the
 * customer fills in before paying. A field is never deleted, only turned off, so that the values
 * already stored on transactions (transactions.extra, by the field's name) keep their label.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("checkout_fields")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("label_en", "text", (c) => c.notNull())
    .addColumn("label_ar", "text", (c) => c.notNull())
    .addColumn("placeholder_en", "text")
    .addColumn("placeholder_ar", "text")
    .addColumn("validator", "text", (c) => c.notNull().defaultTo("text"))
    .addColumn("required", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_length", "integer", (c) => c.notNull().defaultTo(100))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("checkout_fields_merchant_section_name", ["merchant_id", "section", "name"])
    .addCheckConstraint("checkout_fields_validator", sql`validator in ('text', 'email', 'phone', 'digits', 'civil_id', 'number')`)
    .addCheckConstraint("checkout_fields_max_length", sql`max_length between 1 and 256`)
    .execute();
}
