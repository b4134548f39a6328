import { sql, type Kysely } from "kysely";
import type { Engine } from "../database.server";
import { columnTypes } from "./column-types";

/**
 * Bulk payment requests (decision 0027): a merchant's upload of payment requests, the rows it kept
 * (a recurring bulk makes a new set of requests from them each period), each sending run
 * (dispatch log) and, per run, what was sent to whom (transaction log).
 *
 * A transaction log is sent once: a run claims it by one conditional update (`result = 'queued'`)
 * in the same database transaction as the mail or text message it writes to the outbox. A
 * recurring bulk's next run is taken by one conditional update on `next_run_at`.
 */
export async function up(db: Kysely<any>, engine: Engine) {
  const { id, timestamp } = columnTypes(engine);

  await db.schema
    .createTable("bulk_uploads")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("row_count", "integer", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("users.id"))
    .addColumn("created_by_name", "text", (c) => c.notNull())
    /** Whether its requests are sent by e-mail and by text message unless a row says otherwise. */
    .addColumn("send_email", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("send_sms", "integer", (c) => c.notNull().defaultTo(0))
    /** The language of its messages unless a row names one. */
    .addColumn("lang", "text", (c) => c.notNull())
    /** Where customers pay (the platform's address when it was uploaded): the links its runs send. */
    .addColumn("base_url", "text", (c) => c.notNull())
    .addColumn("schedule", "text", (c) => c.notNull().defaultTo("none"))
    /** When the schedule began: its runs fall on this day and time plus whole weeks or months. */
    .addColumn("schedule_from", timestamp)
    .addColumn("next_run_at", timestamp)
    .addColumn("runs", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    /** When its schedule was stopped (null while it recurs, or when it never did). */
    .addColumn("ended_at", timestamp)
    .addCheckConstraint("bulk_uploads_schedule", sql`schedule in ('none', 'weekly', 'monthly') and (schedule = 'none' or (next_run_at is not null and schedule_from is not null))`)
    .execute();
  await db.schema.createIndex("bulk_uploads_merchant").on("bulk_uploads").columns(["merchant_id", "id"]).execute();
  await db.schema
    .createIndex("bulk_uploads_due")
    .on("bulk_uploads")
    .column("next_run_at")
    .where(sql.ref("next_run_at"), "is not", null)
    .execute();

  await db.schema
    .createTable("bulk_rows")
    .addColumn("id", id.type, id.build)
    .addColumn("bulk_id", "integer", (c) => c.notNull().references("bulk_uploads.id"))
    /** Its row in the file (the header is row 1). */
    .addColumn("row_number", "integer", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("currency_code", "text", (c) => c.notNull())
    .addColumn("editable_amount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("min_amount", "bigint")
    .addColumn("max_amount", "bigint")
    .addColumn("customer_first_name", "text")
    .addColumn("customer_last_name", "text")
    .addColumn("customer_email", "text")
    .addColumn("customer_phone", "text")
    .addColumn("description", "text")
    .addColumn("remarks", "text")
    .addColumn("next_url", "text")
    .addColumn("pg_codes", "text", (c) => c.notNull())
    /** How long after a run starts its request expires (its expiry as the file gave it, from the upload); null: no expiry. */
    .addColumn("expires_after_ms", "bigint")
    .addColumn("send_email", "integer", (c) => c.notNull())
    .addColumn("send_sms", "integer", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addCheckConstraint("bulk_rows_amount", sql`amount > 0`)
    .execute();
  await db.schema.createIndex("bulk_rows_bulk").on("bulk_rows").columns(["bulk_id", "row_number"]).execute();

  await db.schema
    .createTable("bulk_dispatch_logs")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("bulk_id", "integer", (c) => c.notNull().references("bulk_uploads.id"))
    /** upload: the first run; scheduled: a recurring run's new requests; resend: the failed ones again. */
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requests_created", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by_name", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("started_at", timestamp)
    .addColumn("finished_at", timestamp)
    .addCheckConstraint("bulk_dispatch_logs_kind", sql`kind in ('upload', 'scheduled', 'resend') and status in ('queued', 'running', 'finished')`)
    .addCheckConstraint("bulk_dispatch_logs_counts", sql`sent >= 0 and failed >= 0 and sent + failed <= total`)
    .execute();
  await db.schema.createIndex("bulk_dispatch_logs_bulk").on("bulk_dispatch_logs").columns(["bulk_id", "id"]).execute();

  await db.schema
    .createTable("bulk_transaction_logs")
    .addColumn("id", id.type, id.build)
    .addColumn("merchant_id", "integer", (c) => c.notNull().references("merchants.id"))
    .addColumn("bulk_id", "integer", (c) => c.notNull().references("bulk_uploads.id"))
    .addColumn("dispatch_log_id", "integer", (c) => c.notNull().references("bulk_dispatch_logs.id"))
    .addColumn("row_id", "integer", (c) => c.notNull().references("bulk_rows.id"))
    .addColumn("transaction_id", "text", (c) => c.notNull().references("transactions.id"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("result", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("error", "text")
    /** The mail (outgoing_mail) or text message (outgoing_sms) it wrote. */
    .addColumn("message_id", "integer")
    .addColumn("sent_at", timestamp)
    .addUniqueConstraint("bulk_transaction_logs_once", ["dispatch_log_id", "transaction_id", "channel"])
    .addCheckConstraint("bulk_transaction_logs_values", sql`channel in ('email', 'sms') and result in ('queued', 'sent', 'failed')`)
    .execute();
  await db.schema.createIndex("bulk_transaction_logs_run").on("bulk_transaction_logs").columns(["dispatch_log_id", "result", "id"]).execute();
  await db.schema.createIndex("bulk_transaction_logs_bulk").on("bulk_transaction_logs").columns(["bulk_id", "transaction_id", "channel"]).execute();
}
