import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Refresh tokens already rotated away are remembered until their session would have ended, so a
 * second use of one is recognised as theft and ends the session (decision 0016).
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  await db.schema
    .createTable("retired_refresh_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull())
    .addColumn("retired_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("retired_refresh_tokens_session").on("retired_refresh_tokens").column("session_id").execute();
  await db.schema.createIndex("retired_refresh_tokens_expiry").on("retired_refresh_tokens").column("expires_at").execute();
}
