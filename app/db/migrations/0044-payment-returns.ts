import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Money that should not have been taken goes back by itself: a payment that lands on an order staff
 * canceled, or a second payment of what was already paid. One row per captured attempt to give back,
 * written in the database transaction that records the payment (so at most once), with the reference
 * its refund or void is sent under and, when the merchant's checker must approve it, its request.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  const money = engine === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("payment_returns")
    .addColumn("attempt_id", "text", (c) => c.primaryKey().references("payment_attempts.id"))
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull().unique())
    .addColumn("request_id", "integer", (c) => c.references("operation_requests.id"))
    .addColumn("refusal", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_returns_transaction").on("payment_returns").column("transaction_id").execute();
}
