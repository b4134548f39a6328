import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/** The transactions workspace: list filters, child operations, approvals, table fields, reports, totals. */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);
  const money = engine === "postgres" ? "bigint" : "integer";

  // Filterable flags and references of a transaction (dashboard spec §3 transaction filters).
  await db.schema.alterTable("transactions").addColumn("seen", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("transactions").addColumn("email_seen", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("transactions").addColumn("disclosed_to_merchant", "integer", (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable("transactions").addColumn("product_type", "text").execute();
  await db.schema.alterTable("transactions").addColumn("bulk_id", "integer").execute();
  await db.schema.alterTable("transactions").addColumn("voided_amount", money, (c) => c.notNull().defaultTo(0)).execute();
  // Lower-cased e-mail for case-insensitive search by index on both engines. Its prefix search is a
  // range (>= q, < q + U+FFFF): compared byte by byte on Postgres as on SQLite, whatever the database's locale.
  await db.schema
    .alterTable("transactions")
    .addColumn("customer_email_lc", "text", (c) => (engine === "postgres" ? c.modifyEnd(sql`collate "C"`) : c))
    .execute();
  await sql`update transactions set customer_email_lc = lower(customer_email)`.execute(db);

  await db.schema.dropIndex("transactions_merchant_created").execute();
  await db.schema.dropIndex("transactions_merchant_state").execute();
  // The lists, newest first: live rows (partial indexes, so a filtered count reads the index alone),
  // by section and by state; deleted rows apart.
  const live = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on("transactions").columns(columns).where(sql.ref("deleted_at"), "is", null).execute();
  await live("transactions_list_all", ["merchant_id", "created_at"]);
  await live("transactions_list_plugin", ["merchant_id", "plugin", "created_at"]);
  await live("transactions_list_state", ["merchant_id", "state", "created_at"]);
  await live("transactions_list_plugin_state", ["merchant_id", "plugin", "state", "created_at"]);
  await db.schema
    .createIndex("transactions_list_deleted")
    .on("transactions")
    .columns(["merchant_id", "plugin", "created_at"])
    .where(sql.ref("deleted_at"), "is not", null)
    .execute();
  await db.schema.createIndex("transactions_list_changed").on("transactions").columns(["merchant_id", "state_changed_at"]).execute();
  // The filter form's choices: a section's product types and bulk uploads, without reading its rows.
  await db.schema
    .createIndex("transactions_product_types")
    .on("transactions")
    .columns(["merchant_id", "plugin", "product_type"])
    .where(sql.ref("product_type"), "is not", null)
    .execute();
  await db.schema
    .createIndex("transactions_bulks")
    .on("transactions")
    .columns(["merchant_id", "plugin", "bulk_id"])
    .where(sql.ref("bulk_id"), "is not", null)
    .execute();
  await db.schema.createIndex("transactions_email").on("transactions").columns(["merchant_id", "customer_email_lc"]).execute();
  // A broad e-mail prefix ("saud") matches thousands of live rows: on SQLite these answer the count
  // and the page's order from the index alone, reading only the ten rows shown. (Postgres combines
  // the search branches by bitmap and measured slower with them.)
  if (engine === "sqlite") {
    await live("transactions_email_live", ["merchant_id", "customer_email_lc", "created_at", "id"]);
    await live("transactions_email_plugin_live", ["merchant_id", "plugin", "customer_email_lc", "created_at", "id"]);
  }
  await db.schema.createIndex("transactions_phone").on("transactions").columns(["merchant_id", "customer_phone"]).execute();
  await db.schema.createIndex("payment_attempts_track").on("payment_attempts").columns(["merchant_id", "track_id"]).execute();
  await db.schema.createIndex("payment_attempts_payment_id").on("payment_attempts").columns(["merchant_id", "payment_id"]).execute();
  await db.schema.createIndex("payment_attempts_reference").on("payment_attempts").columns(["merchant_id", "reference_id"]).execute();

  // Refunds, captures and voids: child records of a transaction.
  await db.schema
    .createTable("transaction_operations")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("gateway_reference", "text")
    .addColumn("message", "text")
    .addColumn("requested_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("approval_request_id", "integer")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("completed_at", timestamp)
    .execute();
  await db.schema.createIndex("transaction_operations_transaction").on("transaction_operations").column("transaction_id").execute();

  // Maker-checker requests for refunds, captures and voids (Operations Requests).
  await db.schema
    .createTable("operation_requests")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", money, (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("maker_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("maker_name", "text", (c) => c.notNull())
    .addColumn("checker_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("checker_name", "text")
    .addColumn("note", "text")
    .addColumn("result_message", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    .addColumn("decided_at", timestamp)
    .execute();
  await db.schema.createIndex("operation_requests_merchant").on("operation_requests").columns(["merchant_id", "state", "created_at"]).execute();
  // At most one pending request per transaction, whichever process asks.
  await sql`create unique index operation_requests_one_pending on operation_requests (transaction_id) where state = 'pending'`.execute(db);

  // Requests to grant refund or void rights to a staff user (Permissions Requests).
  await db.schema
    .createTable("permission_requests")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("permission", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("requested_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("requested_by_name", "text", (c) => c.notNull())
    .addColumn("checker_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("checker_name", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("decided_at", timestamp)
    .execute();
  await db.schema.createIndex("permission_requests_merchant").on("permission_requests").columns(["merchant_id", "state", "created_at"]).execute();
  await sql`create unique index permission_requests_one_pending on permission_requests (user_id, permission) where state = 'pending'`.execute(db);

  // The columns a merchant shows in each section's list, with their labels and order.
  await db.schema
    .createTable("table_fields")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("label_en", "text", (c) => c.notNull())
    .addColumn("label_ar", "text", (c) => c.notNull())
    .addColumn("is_active", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("table_fields_pk", ["merchant_id", "section", "name"])
    .execute();

  // Exports: requested, built in the background, downloaded from Generated Reports.
  await db.schema
    .createTable("reports")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("user_name", "text", (c) => c.notNull())
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("file_format", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull())
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("fields", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("rows_total", "integer")
    .addColumn("rows_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("file_path", "text")
    .addColumn("file_name", "text")
    .addColumn("file_size", "integer")
    .addColumn("error", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("finished_at", timestamp)
    .execute();
  await db.schema.createIndex("reports_merchant").on("reports").columns(["merchant_id", "created_at"]).execute();

  // What a user is told in the dashboard ('Report exported', 'New Permission Request'…).
  await db.schema
    .createTable("notifications")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("link", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("read_at", timestamp)
    .execute();
  await db.schema.createIndex("notifications_user").on("notifications").columns(["user_id", "id"]).execute();

  // Per merchant, section, currency and Kuwait day: what was asked, received and given back.
  await db.schema
    .createTable("transaction_totals")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("plugin", "text", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("generated_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("generated_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("deleted_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("deleted_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("received_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("received_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_amount", money, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("transaction_totals_pk", ["merchant_id", "plugin", "currency_code", "day"])
    .execute();

  const kuwaitDay = (column: string) =>
    engine === "postgres"
      ? sql.raw(`to_char(${column} at time zone 'Asia/Kuwait', 'YYYY-MM-DD')`)
      : sql.raw(`date(${column}, '+3 hours')`);
  await sql`
    insert into transaction_totals (merchant_id, plugin, currency_code, day, generated_count, generated_amount, deleted_count, deleted_amount)
    select merchant_id, plugin, currency_code, ${kuwaitDay("created_at")}, count(*), sum(amount),
      sum(case when deleted_at is null then 0 else 1 end), sum(case when deleted_at is null then 0 else amount end)
    from transactions group by merchant_id, plugin, currency_code, ${kuwaitDay("created_at")}`.execute(db);
  await sql`
    insert into transaction_totals (merchant_id, plugin, currency_code, day, received_count, received_amount)
    select merchant_id, plugin, currency_code, ${kuwaitDay("state_changed_at")}, count(*), sum(captured_amount)
    from transactions where captured_amount > 0 group by merchant_id, plugin, currency_code, ${kuwaitDay("state_changed_at")}
    on conflict (merchant_id, plugin, currency_code, day) do update set
      received_count = excluded.received_count, received_amount = excluded.received_amount`.execute(db);

  // The statistics home (docs/decisions/0009): per merchant, Kuwait day of a transaction's creation,
  // section, currency and gateway — the paid transactions and their captured amounts (by the gateway
  // that was paid), and the payment attempts completed and succeeded on them (by the attempt's gateway).
  // Deleted transactions are not counted.
  await db.schema
    .createTable("transaction_statistics")
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("plugin", "text", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("gateway_code", "text", (c) => c.notNull())
    .addColumn("paid_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("paid_amount", money, (c) => c.notNull().defaultTo(0))
    .addColumn("attempts_completed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("attempts_succeeded", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("transaction_statistics_pk", ["merchant_id", "day", "plugin", "currency_code", "gateway_code"])
    .execute();
  await sql`
    insert into transaction_statistics (merchant_id, day, plugin, currency_code, gateway_code, paid_count, paid_amount)
    select merchant_id, ${kuwaitDay("created_at")}, plugin, currency_code, coalesce(gateway_code, ''), count(*), sum(captured_amount)
    from transactions where state = 'paid' and deleted_at is null
    group by merchant_id, ${kuwaitDay("created_at")}, plugin, currency_code, coalesce(gateway_code, '')`.execute(db);
  await sql`
    insert into transaction_statistics (merchant_id, day, plugin, currency_code, gateway_code, attempts_completed, attempts_succeeded)
    select t.merchant_id, ${kuwaitDay("t.created_at")}, t.plugin, t.currency_code, a.gateway_code, count(*),
      sum(case when a.state = 'success' then 1 else 0 end)
    from payment_attempts a join transactions t on t.id = a.transaction_id
    where t.deleted_at is null and a.state in ('success', 'failed', 'canceled', 'error')
    group by t.merchant_id, ${kuwaitDay("t.created_at")}, t.plugin, t.currency_code, a.gateway_code
    on conflict (merchant_id, day, plugin, currency_code, gateway_code) do update set
      attempts_completed = excluded.attempts_completed, attempts_succeeded = excluded.attempts_succeeded`.execute(db);
  // The home page's recent actions: the merchant's newest, or one user's own.
  await db.schema.createIndex("audit_log_merchant_recent").on("audit_log").columns(["merchant_id", "id"]).execute();
  await db.schema.createIndex("audit_log_actor_recent").on("audit_log").columns(["actor_user_id", "id"]).execute();
}
