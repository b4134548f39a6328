import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * A checkout session's own webhook (its `webhook_url`): the merchant's checkout signing secret,
 * kept sealed (one per merchant, made on its first session, rotated by a manager); the events told
 * for a session, and every try of delivering them, as the endpoints' log keeps its own.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("checkout_signing_secrets")
    .addColumn("merchant_id", "integer", (c) => c.primaryKey().references("merchants.id"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("checkout_session_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("session_id", "text", (c) => c.notNull().references("checkout_sessions.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("checkout_session_events_session").on("checkout_session_events").columns(["session_id", "created_at"]).execute();
  await db.schema
    .createTable("checkout_session_deliveries")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_id", "text", (c) => c.notNull().references("checkout_session_events.id"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("response_code", "integer")
    .addColumn("response_body", "text")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("checkout_session_deliveries_event").on("checkout_session_deliveries").columns(["event_id", "attempt"]).execute();
}
