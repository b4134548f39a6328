import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Money is never lost (decision 0013): what a late or duplicate payment, an operation interrupted
 * by a crash and the daily comparison with the gateways' books need.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  const money = engine === "postgres" ? "bigint" : "integer";

  // A transaction paid after it was canceled or deleted says so (and a deleted one comes back to the list).
  await db.schema.alterTable("transactions").addColumn("paid_late", "text").execute();

  // When the reconciler asks the gateway next about an attempt still pending, and how often it has asked.
  await db.schema.alterTable("payment_attempts").addColumn("inquiries", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("payment_attempts").addColumn("next_inquiry_at", timestamp).execute();
  await db.schema.createIndex("payment_attempts_pending").on("payment_attempts").columns(["state", "next_inquiry_at"]).execute();
  // Attempts already waiting are asked about at once.
  await db.updateTable("payment_attempts").set({ next_inquiry_at: sql`created_at` }).where("state", "=", "pending").execute();

  // An operation names the captured attempt it takes money from, and carries its own reference to
  // the gateway, by which it is sent once and asked about after a crash.
  await db.schema.alterTable("transaction_operations").addColumn("attempt_id", "text").execute();
  await db.schema.alterTable("transaction_operations").addColumn("reference", "text").execute();
  await db.schema.alterTable("transaction_operations").addColumn("checks", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("transaction_operations").addColumn("next_check_at", timestamp).execute();
  await db.schema.createIndex("transaction_operations_reference").on("transaction_operations").column("reference").unique().execute();
  await db.schema.createIndex("transaction_operations_state").on("transaction_operations").columns(["state", "next_check_at"]).execute();
  // Operations on one attempt: what a duplicate payment still has to give back.
  await db.schema.createIndex("transaction_operations_attempt").on("transaction_operations").column("attempt_id").execute();
  await db.schema.alterTable("operation_requests").addColumn("attempt_id", "text").execute();

  // The daily comparison of the gateways' books with the ledger.
  await db.schema
    .createTable("reconciliation_runs")
    .addColumn("id", id.type, id.build)
    .addColumn("started_at", timestamp, (c) => c.notNull())
    .addColumn("finished_at", timestamp)
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("checked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("found", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("resolved", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createTable("reconciliation_differences")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    /** The gateway's or our reference the difference is about (track id, payment id, operation reference). */
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("transaction_id", "text")
    .addColumn("attempt_id", "text")
    .addColumn("operation_id", "integer")
    .addColumn("platform_amount", money)
    .addColumn("gateway_amount", money)
    .addColumn("currency_code", "text")
    .addColumn("first_seen_at", timestamp, (c) => c.notNull())
    .addColumn("last_seen_at", timestamp, (c) => c.notNull())
    .addColumn("resolved_at", timestamp)
    .addColumn("resolved_by", "text")
    .addColumn("note", "text")
    .execute();
  await db.schema
    .createIndex("reconciliation_differences_open")
    .on("reconciliation_differences")
    .columns(["merchant_id", "gateway_code", "kind", "reference"])
    .unique()
    .where(sql.ref("resolved_at"), "is", null)
    .execute();

  // The card sandbox remembers each refund, capture and void by the merchant's reference.
  await db.schema
    .createTable("sandbox_card_operations")
    .addColumn("id", id.type, id.build)
    .addColumn("api_key", "text", (c) => c.notNull())
    .addColumn("payment_id", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sandbox_card_operations_reference").on("sandbox_card_operations").columns(["api_key", "reference"]).unique().execute();
  await db.schema.createIndex("sandbox_card_payments_created").on("sandbox_card_payments").columns(["api_key", "created_at"]).execute();
}
