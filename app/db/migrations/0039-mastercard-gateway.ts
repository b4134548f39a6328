import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * The Mastercard Gateway replaces the card gateway of the platform's own protocol (decision 0038).
 * Attempts keep what the gateway gave at start for the return to be checked against (its
 * successIndicator) and the 3-D Secure outcome. The card sandbox's books go; the MPGS sandbox keeps
 * its merchants, orders and transactions as the gateway does. Card gateways become MPGS ones: the
 * platform's sandbox ones are connected to this installation's MPGS sandbox account at the next
 * start; one with an endpoint of its own (a real acquirer speaking the old protocol) is disabled
 * until its merchant enters MPGS credentials. Attempts made through a card gateway stay as history,
 * and the reconciler stops asking about them: no gateway speaks their protocol any more.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { timestamp } = columnTypes(engine);
  await db.schema.alterTable("payment_attempts").addColumn("return_secret", "text").execute();
  await db.schema.alterTable("payment_attempts").addColumn("authentication_status", "text").execute();

  await db.schema
    .createTable("sandbox_mpgs_merchants")
    .addColumn("merchant_id", "text", (c) => c.primaryKey())
    .addColumn("api_password", "text", (c) => c.notNull())
    .addColumn("notification_secret", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sandbox_mpgs_orders")
    .addColumn("merchant_id", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    /** Null for an order paid without the hosted page (a wallet's PAY). */
    .addColumn("session_id", "text", (c) => c.unique())
    .addColumn("success_indicator", "text")
    .addColumn("operation", "text", (c) => c.notNull())
    /** Minor units of `currency`; the API speaks decimals. */
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("merchant_name", "text")
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("return_url", "text")
    .addColumn("notification_url", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("authentication_status", "text")
    .addColumn("card_masked", "text")
    .addColumn("card_expiry", "text")
    .addColumn("total_authorized", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_captured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_refunded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("sandbox_mpgs_orders_pk", ["merchant_id", "order_id"])
    .execute();
  await db.schema
    .createTable("sandbox_mpgs_transactions")
    .addColumn("merchant_id", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("transaction_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("target_transaction_id", "text")
    .addColumn("authorization_code", "text")
    .addColumn("receipt", "text")
    .addColumn("wallet_provider", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("sandbox_mpgs_transactions_pk", ["merchant_id", "order_id", "transaction_id"])
    .execute();

  await db.schema.dropTable("sandbox_card_operations").execute();
  await db.schema.dropTable("sandbox_card_payments").execute();
  await db.schema.dropTable("sandbox_card_merchants").execute();

  await convertCardGateways(db);
}

/** Card gateways become MPGS ones (a real acquirer's, with an endpoint of its own, off until it has MPGS credentials); their attempts stay as history. */
export async function convertCardGateways(db: Kysely<any>) {
  await db.updateTable("gateways").set({ enabled: 0 }).where("kind", "=", "card").where("endpoint_url", "is not", null).execute();
  await db.updateTable("gateways").set({ kind: "mpgs" }).where("kind", "=", "card").execute();
  await db.updateTable("payment_attempts").set({ next_inquiry_at: null }).where("gateway_kind", "=", "card").execute();
}
