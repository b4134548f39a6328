import type { Kysely } from "kysely";
import type { Engine } from "../database.server";

/**
 * A collector page's form carries a submission token: the same form sent twice (a double tap, a
 * resend on a slow line) makes one payment. Kept on the payment's row, unique per collector; null
 * for payments made without one (the API, payments from before).
 */
export async function up(db: Kysely<any>, _engine: Engine) {
  await db.schema.alterTable("customer_payments").addColumn("submission_token", "text").execute();
  await db.schema.createIndex("customer_payments_submission").on("customer_payments").columns(["collector_id", "submission_token"]).unique().execute();
}
