import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * A merchant's own words for a mail or a text message the platform sends for it, per language:
 * one row per message, channel and language, each part null where the default stays. No row: the
 * default words.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  await db.schema
    .createTable("notification_templates")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("template", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("subject", "text")
    .addColumn("heading", "text")
    .addColumn("intro", "text")
    .addColumn("action", "text")
    .addColumn("outro", "text")
    .addColumn("body", "text")
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addPrimaryKeyConstraint("notification_templates_pk", ["merchant_id", "template", "channel", "lang"])
    .addCheckConstraint("notification_templates_channel", sql`channel in ('mail', 'sms')`)
    .addCheckConstraint("notification_templates_lang", sql`lang in ('en', 'ar')`)
    .execute();
}
