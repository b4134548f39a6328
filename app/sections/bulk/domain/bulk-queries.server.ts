import type { DB } from "~/db/database.server";
import { RECEIPTED_STATES } from "~/domain/payments/states";
import type { BulkSendResult } from "~/db/schema";
export { LOG_RESULTS } from "./bulk-columns";

/** What the bulk pages and the API read: a merchant's bulks, one bulk's figures, its runs and what each sent. */

const BULK_COLUMNS = [
  "b.id",
  "b.file_name",
  "b.row_count",
  "b.created_by_name",
  "b.send_email",
  "b.send_sms",
  "b.lang",
  "b.schedule",
  "b.next_run_at",
  "b.runs",
  "b.created_at",
  "b.ended_at",
] as const;

/**
 * Messages of the merchant's bulks (or of one run) that were written and then given up by the mail
 * relay or the text-message provider, by run: the runs' own counters know only the messages failed
 * before they were written, and every figure shows both, as the logs do.
 */
async function relayFailures(
  db: DB,
  merchantId: number,
  where: { bulkIds: readonly number[] } | { dispatchLogId: number },
) {
  if ("bulkIds" in where && where.bulkIds.length === 0) return new Map<number, { bulkId: number; count: number }>();
  let query = db
    .selectFrom("bulk_transaction_logs as log")
    .leftJoin("outgoing_mail as mail", (join) =>
      join.onRef("mail.id", "=", "log.message_id").on("log.channel", "=", "email"),
    )
    .leftJoin("outgoing_sms as sms", (join) =>
      join.onRef("sms.id", "=", "log.message_id").on("log.channel", "=", "sms"),
    )
    .select(["log.bulk_id", "log.dispatch_log_id"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("log.merchant_id", "=", merchantId)
    .where("log.result", "=", "sent")
    .where((eb) => eb.or([eb("mail.status", "=", "failed"), eb("sms.status", "=", "failed")]))
    .groupBy(["log.bulk_id", "log.dispatch_log_id"]);
  query =
    "bulkIds" in where
      ? query.where("log.bulk_id", "in", where.bulkIds)
      : query.where("log.dispatch_log_id", "=", where.dispatchLogId);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.dispatch_log_id, { bulkId: row.bulk_id, count: Number(row.n) }]));
}

function failuresOfBulk(failures: Map<number, { bulkId: number; count: number }>, bulkId: number) {
  let count = 0;
  for (const entry of failures.values()) if (entry.bulkId === bulkId) count += entry.count;
  return count;
}

/** A merchant's bulks, newest first, with their progress: requests made, messages to send, sent and failed, requests paid. */
export async function listBulks(db: DB, merchantId: number, options: { limit: number; offset: number }) {
  const [bulks, total] = await Promise.all([
    db
      .selectFrom("bulk_uploads as b")
      .select(BULK_COLUMNS)
      .select((eb) => [
        eb
          .selectFrom("transactions")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .where("transactions.merchant_id", "=", merchantId)
          .whereRef("transactions.bulk_id", "=", "b.id")
          .as("created"),
        eb
          .selectFrom("transactions")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .where("transactions.merchant_id", "=", merchantId)
          .whereRef("transactions.bulk_id", "=", "b.id")
          .where("transactions.state", "in", RECEIPTED_STATES)
          .as("paid"),
        eb
          .selectFrom("bulk_dispatch_logs as d")
          .select((inner) => inner.fn.sum<number>("d.total").as("n"))
          .whereRef("d.bulk_id", "=", "b.id")
          .as("messages"),
        eb
          .selectFrom("bulk_dispatch_logs as d")
          .select((inner) => inner.fn.sum<number>("d.sent").as("n"))
          .whereRef("d.bulk_id", "=", "b.id")
          .as("sent"),
        eb
          .selectFrom("bulk_dispatch_logs as d")
          .select((inner) => inner.fn.sum<number>("d.failed").as("n"))
          .whereRef("d.bulk_id", "=", "b.id")
          .as("failed"),
        eb
          .selectFrom("bulk_dispatch_logs as d")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("d.bulk_id", "=", "b.id")
          .where("d.status", "<>", "finished")
          .as("running"),
      ])
      .where("b.merchant_id", "=", merchantId)
      .orderBy("b.id", "desc")
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    db
      .selectFrom("bulk_uploads")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow(),
  ]);
  const failures = await relayFailures(db, merchantId, { bulkIds: bulks.map((bulk) => bulk.id) });
  return {
    count: Number(total.n),
    results: bulks.map((bulk) => {
      const refused = failuresOfBulk(failures, bulk.id);
      return {
        ...bulk,
        created: Number(bulk.created ?? 0),
        paid: Number(bulk.paid ?? 0),
        messages: Number(bulk.messages ?? 0),
        sent: Number(bulk.sent ?? 0) - refused,
        failed: Number(bulk.failed ?? 0) + refused,
        dispatching: Number(bulk.running ?? 0) > 0,
      };
    }),
  };
}

export type BulkListRow = Awaited<ReturnType<typeof listBulks>>["results"][number];

/** One bulk of the merchant with its figures, computed from its requests and its runs; undefined when it is not the merchant's. */
export async function loadBulk(db: DB, merchantId: number, bulkId: number) {
  const bulk = await db
    .selectFrom("bulk_uploads as b")
    .select(BULK_COLUMNS)
    .where("b.merchant_id", "=", merchantId)
    .where("b.id", "=", bulkId)
    .executeTakeFirst();
  if (!bulk) return undefined;
  const [requests, runs, failures] = await Promise.all([
    db
      .selectFrom("transactions")
      .select(["currency_code", "state"])
      .select((eb) => [
        eb.fn.countAll<number>().as("count"),
        eb.fn.sum<number>("paid_amount").as("paid"),
        eb.fn.sum<number>("refunded_amount").as("refunded"),
      ])
      .where("merchant_id", "=", merchantId)
      .where("bulk_id", "=", bulkId)
      .groupBy(["currency_code", "state"])
      .execute(),
    db
      .selectFrom("bulk_dispatch_logs")
      .select((eb) => [
        eb.fn.sum<number>("total").as("messages"),
        eb.fn.sum<number>("sent").as("sent"),
        eb.fn.sum<number>("failed").as("failed"),
      ])
      .select((eb) => eb.fn.countAll<number>().as("runs"))
      .select((eb) => eb.fn.sum<number>(eb.case().when("status", "<>", "finished").then(1).else(0).end()).as("running"))
      .where("merchant_id", "=", merchantId)
      .where("bulk_id", "=", bulkId)
      .executeTakeFirstOrThrow(),
    relayFailures(db, merchantId, { bulkIds: [bulkId] }),
  ]);
  const refused = failuresOfBulk(failures, bulkId);
  const collected = new Map<string, number>();
  let created = 0;
  let paid = 0;
  for (const group of requests) {
    created += Number(group.count);
    if (!RECEIPTED_STATES.includes(group.state)) continue;
    paid += Number(group.count);
    const amount = Number(group.paid ?? 0) - Number(group.refunded ?? 0);
    collected.set(group.currency_code, (collected.get(group.currency_code) ?? 0) + amount);
  }
  return {
    ...bulk,
    created,
    paid,
    /** What customers paid and was not refunded, per currency, in minor units. */
    collected: [...collected]
      .map(([currency, amount]) => ({ currency, amount }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    messages: Number(runs.messages ?? 0),
    sent: Number(runs.sent ?? 0) - refused,
    failed: Number(runs.failed ?? 0) + refused,
    dispatching: Number(runs.running ?? 0) > 0,
  };
}

export type BulkSummary = NonNullable<Awaited<ReturnType<typeof loadBulk>>>;

/** A bulk's runs, newest first; a message the relay gave up counts as failed, as its log shows it. */
export async function listDispatchLogs(db: DB, merchantId: number, bulkId: number) {
  const [runs, failures] = await Promise.all([
    db
      .selectFrom("bulk_dispatch_logs")
      .select([
        "id",
        "kind",
        "status",
        "total",
        "sent",
        "failed",
        "requests_created",
        "created_by_name",
        "created_at",
        "started_at",
        "finished_at",
      ])
      .where("merchant_id", "=", merchantId)
      .where("bulk_id", "=", bulkId)
      .orderBy("id", "desc")
      .execute(),
    relayFailures(db, merchantId, { bulkIds: [bulkId] }),
  ]);
  return runs.map((run) => withRelayFailures(run, failures.get(run.id)?.count ?? 0));
}

function withRelayFailures<T extends { sent: number; failed: number }>(run: T, refused: number): T {
  return { ...run, sent: run.sent - refused, failed: run.failed + refused };
}

export type DispatchLogRow = Awaited<ReturnType<typeof listDispatchLogs>>[number];

export async function loadDispatchLog(db: DB, merchantId: number, bulkId: number, dispatchLogId: number) {
  const run = await db
    .selectFrom("bulk_dispatch_logs")
    .select([
      "id",
      "kind",
      "status",
      "total",
      "sent",
      "failed",
      "requests_created",
      "created_by_name",
      "created_at",
      "started_at",
      "finished_at",
    ])
    .where("merchant_id", "=", merchantId)
    .where("bulk_id", "=", bulkId)
    .where("id", "=", dispatchLogId)
    .executeTakeFirst();
  if (!run) return undefined;
  return withRelayFailures(run, (await relayFailures(db, merchantId, { dispatchLogId })).get(run.id)?.count ?? 0);
}

/**
 * What a run sent, a row per message: the file's row, the recipient, the channel, the result and
 * its error. A message the mail relay or the text-message provider gave up after it was written
 * shows as failed, with their last words.
 */
export async function listTransactionLogs(
  db: DB,
  merchantId: number,
  dispatchLogId: number,
  options: { result?: BulkSendResult; limit: number; offset: number },
) {
  let query = db
    .selectFrom("bulk_transaction_logs as log")
    .innerJoin("bulk_rows as r", (join) => join.onRef("r.id", "=", "log.row_id").on("r.merchant_id", "=", merchantId))
    .innerJoin("transactions as t", "t.id", "log.transaction_id")
    .leftJoin("outgoing_mail as mail", (join) =>
      join.onRef("mail.id", "=", "log.message_id").on("log.channel", "=", "email"),
    )
    .leftJoin("outgoing_sms as sms", (join) =>
      join.onRef("sms.id", "=", "log.message_id").on("log.channel", "=", "sms"),
    )
    .where("log.merchant_id", "=", merchantId)
    .where("log.dispatch_log_id", "=", dispatchLogId);
  if (options.result === "failed")
    query = query.where((eb) =>
      eb.or([eb("log.result", "=", "failed"), eb("mail.status", "=", "failed"), eb("sms.status", "=", "failed")]),
    );
  else if (options.result === "sent")
    query = query
      .where("log.result", "=", "sent")
      .where((eb) => eb.or([eb("mail.status", "is", null), eb("mail.status", "<>", "failed")]))
      .where((eb) => eb.or([eb("sms.status", "is", null), eb("sms.status", "<>", "failed")]));
  else if (options.result) query = query.where("log.result", "=", options.result);
  const [rows, total] = await Promise.all([
    query
      .select([
        "log.id",
        "log.channel",
        "log.recipient",
        "log.result",
        "log.error",
        "log.sent_at",
        "log.transaction_id",
        "r.row_number",
        "t.order_no",
        "t.state",
        "mail.error as mail_error",
        "mail.status as mail_status",
        "sms.status as sms_status",
        "sms.error as sms_error",
      ])
      .orderBy("log.id")
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    count: Number(total.n),
    results: rows.map(({ mail_error, mail_status, sms_status, sms_error, ...row }) => {
      const relayFailed = mail_status === "failed" || sms_status === "failed";
      return {
        ...row,
        result: (relayFailed ? "failed" : row.result) as BulkSendResult,
        error: relayFailed ? (mail_error ?? sms_error ?? "bulk.errors.provider_failed") : row.error,
      };
    }),
  };
}

export type TransactionLogRow = Awaited<ReturnType<typeof listTransactionLogs>>["results"][number];
