import type { Kysely } from "kysely";

/** A mail keeps its HTML part beside its plain text: both are sent, as multipart/alternative (decision 0018). */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("outgoing_mail").addColumn("html_body", "text").execute();
}
