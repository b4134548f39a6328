import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Messages that finally failed, and the bulk section's fixes (decision 0027):
 * - a text message keeps the provider's last error (`outgoing_sms.error`); it is marked `failed`
 *   once its sending job gives up, as a mail is;
 * - a bulk upload carries the one-time token of the form that posted it, unique per merchant, so a
 *   form posted twice makes one bulk;
 * - a bulk's rows carry their merchant (every merchant-owned row does), filled from their bulk;
 * - an upload's error report is kept a short while on the server, under a random token, to download.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema.alterTable("outgoing_sms").addColumn("error", "text").execute();

  await db.schema.alterTable("bulk_uploads").addColumn("upload_token", "text").execute();
  await db.schema.createIndex("bulk_uploads_token").on("bulk_uploads").columns(["merchant_id", "upload_token"]).unique().execute();

  await db.schema.alterTable("bulk_rows").addColumn("merchant_id", "integer", (c) => c.references("merchants.id")).execute();
  await sql`update bulk_rows set merchant_id = (select b.merchant_id from bulk_uploads b where b.id = bulk_rows.bulk_id)`.execute(db);
  if (engine === "postgres") await sql`alter table bulk_rows alter column merchant_id set not null`.execute(db);
  await db.schema.createIndex("bulk_rows_merchant").on("bulk_rows").columns(["merchant_id", "bulk_id", "row_number"]).execute();

  await db.schema
    .createTable("bulk_error_reports")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("bulk_error_reports_age").on("bulk_error_reports").column("created_at").execute();
}
