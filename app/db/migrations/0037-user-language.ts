import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * The language a user last signed in with: mails that are not an answer to a page or call of theirs
 * (failed sign-ins to their account, decision 0003) are written in it.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("users").addColumn("language", "text", (c) => c.notNull().defaultTo("en")).execute();
}
