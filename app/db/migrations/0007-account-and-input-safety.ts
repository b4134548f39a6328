import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/** The direction controls that disguise a file name (decision 0016), as in attachments.server. */
const BIDI_CONTROLS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];

/** Decision 0016: refresh tokens' reuse detected; attachment names without direction controls. */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);

  // Refresh tokens already rotated away are remembered until their session would have ended, so a
  // second use of one is recognised as theft and ends the session.
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

  await removeBidiControlsFromAttachmentNames(db);
}

/** Attachment names stored before the controls were removed from uploads lose them now. */
export async function removeBidiControlsFromAttachmentNames(db: Kysely<any>) {
  let cleaned: RawBuilder<string> = sql<string>`attachment_name`;
  for (const control of BIDI_CONTROLS) cleaned = sql<string>`replace(${cleaned}, ${control}, '')`;
  await db
    .updateTable("transactions")
    .set({ attachment_name: cleaned })
    .where("attachment_name", "is not", null)
    .where(sql<boolean>`${cleaned} <> attachment_name`)
    .execute();
}
