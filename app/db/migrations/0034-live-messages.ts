import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The live channel (decision 0033): every message a signed-in user may be told at once, kept a
 * day so a channel that reconnects resumes from the last id it saw; and the browsers' push
 * subscriptions, for when no tab is open.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("live_messages")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    /** One recipient; null: every user of the merchant who holds `permission` (or every user, without one). */
    .addColumn("user_id", "integer")
    .addColumn("permission", "text")
    .addColumn("type", "text", (c) => c.notNull())
    /** JSON. */
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("live_messages_created").on("live_messages").column("created_at").execute();
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
    /** The push service's URL for this browser: one subscription, whoever registers it last. */
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    /** The language the browser's notices are written in: the dashboard's when it subscribed. */
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("push_subscriptions_user").on("push_subscriptions").columns(["user_id"]).execute();
}
