import type { Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  const money = engine === "postgres" ? "bigint" : "integer";

  // Terms and conditions shown on the unit's pay pages, per language.
  await db.schema.alterTable("units").addColumn("terms_en", "text").execute();
  await db.schema.alterTable("units").addColumn("terms_ar", "text").execute();

  await db.schema
    .createTable("gateways")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_ar", "text", (c) => c.notNull())
    .addColumn("logo_url", "text")
    .addColumn("currencies", "text", (c) => c.notNull())
    .addColumn("endpoint_url", "text")
    .addColumn("credentials", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("fee_fixed", money, (c) => c.notNull().defaultTo(0))
    .addColumn("fee_basis_points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("fee_payer", "text", (c) => c.notNull().defaultTo("merchant"))
    .addColumn("capture_mode", "text", (c) => c.notNull().defaultTo("auto"))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("gateways_merchant_code", ["merchant_id", "code"])
    .execute();

  await db.schema
    .createTable("transactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("unit_id", "integer", (c) => c.references("units.id"))
    .addColumn("plugin", "text", (c) => c.notNull())
    .addColumn("order_no", "integer", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("editable_amount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("customer_email", "text")
    .addColumn("customer_phone", "text")
    .addColumn("customer_first_name", "text")
    .addColumn("customer_last_name", "text")
    .addColumn("description", "text")
    .addColumn("remarks", "text")
    .addColumn("attachment_path", "text")
    .addColumn("attachment_name", "text")
    .addColumn("pg_codes", "text", (c) => c.notNull())
    .addColumn("expiration_time", timestamp)
    .addColumn("next_url", "text")
    .addColumn("initiator_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("paid_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("fee", money, (c) => c.notNull().defaultTo(0))
    .addColumn("captured_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("gateway_code", "text")
    .addColumn("paid_attempt_id", "text")
    .addColumn("send_email", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("send_sms", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("delivery_mode", "text", (c) => c.notNull().defaultTo("none"))
    .addColumn("delivery_address", "text")
    .addColumn("delivery_lat", "double precision")
    .addColumn("delivery_lng", "double precision")
    .addColumn("delivery_confirmed_at", timestamp)
    .addColumn("extra", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("state_changed_at", timestamp, (c) => c.notNull())
    .addColumn("deleted_at", timestamp)
    .addUniqueConstraint("transactions_merchant_order_no", ["merchant_id", "order_no"])
    .execute();
  await db.schema.createIndex("transactions_merchant_created").on("transactions").columns(["merchant_id", "created_at"]).execute();
  await db.schema.createIndex("transactions_merchant_state").on("transactions").columns(["merchant_id", "state"]).execute();

  await db.schema
    .createTable("payment_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("gateway_kind", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("fee", money, (c) => c.notNull())
    .addColumn("total", money, (c) => c.notNull())
    .addColumn("fee_payer", "text", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("track_id", "text", (c) => c.notNull().unique())
    .addColumn("submission_token", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("gateway_reference", "text")
    .addColumn("redirect_url", "text")
    .addColumn("payment_id", "text")
    .addColumn("tran_id", "text")
    .addColumn("auth_code", "text")
    .addColumn("reference_id", "text")
    .addColumn("post_date", "text")
    .addColumn("result_code", "text")
    .addColumn("authorized_only", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("completed_at", timestamp)
    .addUniqueConstraint("payment_attempts_submission", ["transaction_id", "submission_token"])
    .execute();
  await db.schema.createIndex("payment_attempts_transaction").on("payment_attempts").column("transaction_id").execute();

  await db.schema
    .createTable("ledger_entries")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("attempt_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("fee", money, (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("ledger_entries_attempt_kind", ["attempt_id", "kind"])
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("response_body", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["merchant_id", "key"])
    .execute();

  await db.schema
    .createTable("outgoing_sms")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.references("merchants.id"))
    .addColumn("to_number", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();

  // The sandbox gateways' own books: they stand for external services and share nothing else.
  await db.schema
    .createTable("sandbox_knet_terminals")
    .addColumn("tranportal_id", "text", (c) => c.primaryKey())
    .addColumn("password", "text", (c) => c.notNull())
    .addColumn("resource_key", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sandbox_knet_payments")
    .addColumn("payment_id", "text", (c) => c.primaryKey())
    .addColumn("tranportal_id", "text", (c) => c.notNull())
    .addColumn("track_id", "text", (c) => c.notNull())
    .addColumn("amount", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("response_url", "text", (c) => c.notNull())
    .addColumn("error_url", "text", (c) => c.notNull())
    .addColumn("udf", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("result", "text")
    .addColumn("tran_id", "text")
    .addColumn("auth_code", "text")
    .addColumn("reference_id", "text")
    .addColumn("post_date", "text")
    .addColumn("card_masked", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("completed_at", timestamp)
    .execute();
  await db.schema.createIndex("sandbox_knet_payments_track").on("sandbox_knet_payments").columns(["tranportal_id", "track_id"]).execute();
  await db.schema
    .createTable("sandbox_card_merchants")
    .addColumn("api_key", "text", (c) => c.primaryKey())
    .addColumn("webhook_secret", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sandbox_card_payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("api_key", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("capture", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("captured_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("card_masked", "text")
    .addColumn("notify_url", "text", (c) => c.notNull())
    .addColumn("return_url", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
}
