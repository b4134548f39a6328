import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/** Each audit entry names the request (or job) that wrote it, as the log lines do (decision 0043). */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("audit_log").addColumn("request_id", "text").execute();
}
