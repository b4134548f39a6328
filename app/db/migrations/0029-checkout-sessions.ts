import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Checkout sessions: a merchant's server asks for a payment (the `session` section). A session is
 * one order of the merchant's and the one transaction that collects it (of section `e_commerce`
 * or `payment_request`); the transaction holds the amount, the customer and the state, the session
 * what only the merchant's server gave: its own order number, where the customer goes back and
 * where the result is posted. The session id is what the merchant's server keeps.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  await db.schema
    .createTable("checkout_sessions")
    /** Public and unguessable: the merchant's server reads and changes the session by it. */
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().unique().references("transactions.id"))
    .addColumn("type", "text", (c) => c.notNull())
    /** The merchant's own order number (unique per merchant); null when it gave none. */
    .addColumn("order_no", "text")
    /** Where the customer is sent back, with the session id and the result. */
    .addColumn("redirect_url", "text")
    /** Where the result is posted, signed, besides the merchant's webhook endpoints. */
    .addColumn("webhook_url", "text")
    /** The API key (its user) or the person that created it. */
    .addColumn("created_by", "integer", (c) => c.references("users.id"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addCheckConstraint("checkout_sessions_type", sql`type in ('e_commerce', 'payment_request')`)
    .execute();
  await db.schema.createIndex("checkout_sessions_merchant").on("checkout_sessions").columns(["merchant_id", "created_at"]).execute();
  await db.schema
    .createIndex("checkout_sessions_order_no")
    .on("checkout_sessions")
    .columns(["merchant_id", "order_no"])
    .unique()
    .where(sql.ref("order_no"), "is not", null)
    .execute();
}
