import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The Shopify flow (decision 0030): a merchant's connection to its shop platform, the payment
 * sessions the platform hands over (each one transaction of the `shopify` section), and the log of
 * the signed calls that tell the platform how each ended.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  await db.schema
    .createTable("shopify_connections")
    .addColumn("merchant_id", "integer", (c) => c.primaryKey().references("merchants.id"))
    /** The shop's own domain (example.myshopify.com): the customer's way back when a session names none. */
    .addColumn("shop_domain", "text", (c) => c.notNull())
    /** Where resolve and reject are posted, signed. */
    .addColumn("callback_url", "text", (c) => c.notNull())
    /** The HMAC-SHA256 key of the callbacks, sealed at rest. */
    .addColumn("signing_secret", "text", (c) => c.notNull())
    .addColumn("secret_rotated_at", timestamp, (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("shopify_payment_sessions")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    /** The platform's payment id: one session (and one transaction) per id, whatever the retries. */
    .addColumn("payment_id", "text", (c) => c.notNull())
    .addColumn("gid", "text", (c) => c.notNull())
    /** The shop's checkout (its order reference for the customer). */
    .addColumn("group_id", "text", (c) => c.notNull())
    .addColumn("transaction_id", "text", (c) => c.notNull().unique().references("transactions.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("test", "integer", (c) => c.notNull())
    /** A digest of what the platform sent: the same id with another payment is refused. */
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("cancel_url", "text", (c) => c.notNull())
    /** Where the customer goes back after paying: the session's, or the one the platform answered to resolve. */
    .addColumn("return_url", "text")
    .addColumn("proposed_at", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("shopify_payment_sessions_kind", sql`kind in ('sale', 'authorization')`)
    .execute();
  await db.schema.createIndex("shopify_payment_sessions_payment").on("shopify_payment_sessions").columns(["merchant_id", "payment_id"]).unique().execute();
  await db.schema
    .createTable("shopify_callbacks")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("response_code", "integer")
    .addColumn("error", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("shopify_callbacks_action", sql`action in ('resolve', 'reject')`)
    .addCheckConstraint("shopify_callbacks_status", sql`status in ('succeeded', 'failed')`)
    .execute();
  await db.schema.createIndex("shopify_callbacks_merchant").on("shopify_callbacks").columns(["merchant_id", "created_at"]).execute();
  await db.schema.createIndex("shopify_callbacks_transaction").on("shopify_callbacks").columns(["transaction_id"]).execute();
}
