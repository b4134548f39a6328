import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * Audit entries and decided operation requests keep the code and parameters of what they say, so
 * each reader sees them written out in their own language.
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("audit_log").addColumn("params", "text").execute();
  await db.schema.alterTable("operation_requests").addColumn("result", "text").execute();
}
