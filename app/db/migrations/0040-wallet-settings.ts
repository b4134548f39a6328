import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The installation's wallet settings (decision 0039): one row. Apple Pay on the web is the
 * installation's, not a merchant's: one merchant identifier registered with Apple for the
 * platform's domain, its domain association file, and the merchant identity certificate and key
 * that prove the platform to Apple when a pay page asks for a merchant session (key and
 * certificate sealed, as gateway credentials are). Google Pay needs only Google's merchant id.
 * A wallet's token becomes its attempt's submission token, looked up across transactions.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  await db.schema
    .createTable("wallet_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("apple_merchant_identifier", "text")
    .addColumn("apple_display_name", "text")
    .addColumn("apple_domain_association", "text")
    .addColumn("apple_identity_certificate", "text")
    .addColumn("apple_identity_key", "text")
    .addColumn("google_merchant_id", "text")
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  // A wallet's token is the submission of the attempt it paid: a token sent again is found, whatever transaction it names.
  await db.schema.createIndex("payment_attempts_submission_token").on("payment_attempts").column("submission_token").execute();
}
