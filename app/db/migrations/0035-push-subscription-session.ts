import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * A browser's push subscription remembers the sign-in that made it (decision 0033): signing out
 * of that browser stops its notices, as ending all of a user's sessions stops all of theirs.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("push_subscriptions").addColumn("session_id", "text").execute();
  await db.schema.createIndex("push_subscriptions_session").on("push_subscriptions").column("session_id").execute();
}
