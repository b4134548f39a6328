import { errorField, log as logger } from "~/lib/log.server";
import { sql } from "kysely";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { BulkRunKind, BulkRowTable } from "~/db/schema";
import type { Selectable } from "kysely";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { loadAvailableSections, hasFeature } from "~/domain/merchants/merchants.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { sendSms } from "~/domain/messaging/sms.server";
import { payLinkParams, payUrlOf } from "~/domain/payments/lifecycle.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { createTransactions } from "~/domain/payments/transaction-state.server";
import { now, nowIso } from "~/lib/clock.server";
import { enqueueJob } from "~/lib/jobs.server";
import { refuse, word, type Refusal } from "~/lib/outcome";
import type { Schedule } from "./bulk-columns";
import { nextRunAt } from "./schedule";

/**
 * A bulk's sending runs (dispatch logs). A run makes its payment requests (the first run and each
 * recurring one) and one transaction log per message to send; dispatch jobs then send them in
 * batches, a slice of the run per job. Each batch claims its logs by one conditional update and
 * writes their mails and text messages to the outbox in the same database transaction, so a worker
 * killed half-way has sent a whole number of batches, and the one that takes the job over sends
 * the rest, each once.
 */

export const DISPATCH_JOB = "bulk_dispatch";
export const DUE_RUNS_JOB = "bulk_start_due_runs";

/** Attempts of a dispatch job before it is given up (abandonRun). */
const DISPATCH_ATTEMPTS = 10;
/** Messages per batch (one database transaction each). */
const DISPATCH_BATCH = 100;
/** Rows per INSERT of transaction logs: 7 columns × 1,000. */
const LOG_BATCH = 1000;

type KeptRow = { id: number; row: Omit<Selectable<BulkRowTable>, "id" | "bulk_id" | "merchant_id"> };
type Actor = { id: number; username: string };

/**
 * Makes a run of a bulk: a payment request per row (plugin bulk, the bulk's id), the run's dispatch
 * log, a transaction log per message (by e-mail and/or SMS, as the row says) and the job that sends
 * them. Run it inside writeTransaction.
 */
export async function startRun(
  trx: DB,
  input: {
    bulk: { id: number; merchant_id: number };
    rows: readonly KeptRow[];
    kind: Exclude<BulkRunKind, "resend">;
    actor: Actor | null;
  },
) {
  const startedAt = now();
  const made = await createTransactions(
    trx,
    input.bulk.merchant_id,
    input.rows.map(({ row }) => ({
      plugin: "bulk",
      bulk_id: input.bulk.id,
      amount: row.amount,
      currency_code: row.currency_code,
      editable_amount: row.editable_amount,
      min_amount: row.min_amount,
      max_amount: row.max_amount,
      customer_email: row.customer_email,
      customer_phone: row.customer_phone,
      customer_first_name: row.customer_first_name,
      customer_last_name: row.customer_last_name,
      description: row.description,
      remarks: row.remarks,
      attachment_path: null,
      attachment_name: null,
      pg_codes: row.pg_codes,
      expiration_time:
        row.expires_after_ms === null
          ? null
          : new Date(startedAt.getTime() + Number(row.expires_after_ms)).toISOString(),
      next_url: row.next_url,
      initiator_user_id: input.actor?.id ?? null,
      gateway_code: null,
      paid_attempt_id: null,
      delivery_mode: "none" as const,
      send_email: row.send_email,
      send_sms: row.send_sms,
    })),
  );
  const messages = input.rows.flatMap(({ id, row }, index) => [
    ...(row.send_email && row.customer_email
      ? [{ row_id: id, transaction_id: made[index].id, channel: "email" as const, recipient: row.customer_email }]
      : []),
    ...(row.send_sms && row.customer_phone
      ? [{ row_id: id, transaction_id: made[index].id, channel: "sms" as const, recipient: row.customer_phone }]
      : []),
  ]);
  const dispatchLogId = await queueRun(trx, {
    bulk: input.bulk,
    kind: input.kind,
    actor: input.actor,
    messages,
    requestsCreated: made.length,
  });
  return { dispatchLogId, created: made.length };
}

/** A dispatch log with its transaction logs, and the job that sends them. */
async function queueRun(
  trx: DB,
  input: {
    bulk: { id: number; merchant_id: number };
    kind: BulkRunKind;
    actor: Actor | null;
    requestsCreated: number;
    messages: { row_id: number; transaction_id: string; channel: "email" | "sms"; recipient: string }[];
  },
) {
  const log = await trx
    .insertInto("bulk_dispatch_logs")
    .values({
      merchant_id: input.bulk.merchant_id,
      bulk_id: input.bulk.id,
      kind: input.kind,
      status: input.messages.length ? "queued" : "finished",
      total: input.messages.length,
      requests_created: input.requestsCreated,
      created_by_name: input.actor?.username ?? null,
      created_at: nowIso(),
      started_at: input.messages.length ? null : nowIso(),
      finished_at: input.messages.length ? null : nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (let from = 0; from < input.messages.length; from += LOG_BATCH) {
    await trx
      .insertInto("bulk_transaction_logs")
      .values(
        input.messages.slice(from, from + LOG_BATCH).map((message) => ({
          ...message,
          merchant_id: input.bulk.merchant_id,
          bulk_id: input.bulk.id,
          dispatch_log_id: log.id,
          result: "queued" as const,
        })),
      )
      .execute();
  }
  if (input.messages.length)
    await enqueueJob(trx, DISPATCH_JOB, { dispatchLogId: log.id }, { maxAttempts: DISPATCH_ATTEMPTS });
  return log.id;
}

export type DispatchOptions = {
  /**
   * The most messages a second (BULK_SEND_PER_SECOND); unset: as fast as the outbox takes them. Each
   * message's sending job waits for its turn (message n of the run not before n / perSecond seconds
   * after the run began), and the run itself goes on in a job due when its next batch's turn comes.
   */
  perSecond?: number;
  /**
   * How long one job sends before it hands the rest of the run to a new job (so that the worker's
   * other jobs take their turns in between); unset: until the run is done.
   */
  sliceMs?: number;
  /** Called after each committed batch (tests stop a run there, as a worker killed between two batches). */
  afterBatch?: (sentSoFar: number) => Promise<void> | void;
  /** Called after each message is written, inside its batch (tests stop a worker half-way through a batch there). */
  afterMessage?: (writtenInBatch: number) => void;
  /** Called before each message is written (tests make one message fail there). */
  beforeMessage?: (message: { recipient: string }) => void;
};

/** How long a dispatch job sends before it hands the run over to the next one. */
export const DISPATCH_SLICE_MS = 2_000;

/**
 * The dispatch job: sends a run's queued messages, a batch per database transaction, for one slice
 * of time (or one batch when paced), then queues a job for the rest, and marks the run finished
 * when none is left. Safe to run again after a crash, or twice at once: a message is claimed by a
 * conditional update before it is written, in the same transaction.
 */
export async function dispatchRun(db: DB, dispatchLogId: number, options: DispatchOptions = {}) {
  const started = await db
    .updateTable("bulk_dispatch_logs")
    .set({ status: "running", started_at: sql`coalesce(started_at, ${nowIso()})` })
    .where("id", "=", dispatchLogId)
    .where("status", "<>", "finished")
    .returning(["started_at"])
    .executeTakeFirst();
  if (!started?.started_at) return;
  const pace = options.perSecond
    ? { perSecond: options.perSecond, from: new Date(started.started_at).getTime() }
    : undefined;
  const batchSize = Math.min(DISPATCH_BATCH, options.perSecond ?? DISPATCH_BATCH);
  const sliceEnds = Date.now() + (options.sliceMs ?? Infinity);
  let handled = 0;
  for (;;) {
    const count = await writeTransaction(db, (trx) => dispatchBatch(trx, dispatchLogId, batchSize, pace, options));
    if (count === 0) break;
    handled += count;
    await options.afterBatch?.(handled);
    if (pace || Date.now() >= sliceEnds) {
      // The rest goes on in a job of its own, due when the next batch's turn comes.
      const run = await db
        .selectFrom("bulk_dispatch_logs")
        .select(["sent", "failed"])
        .where("id", "=", dispatchLogId)
        .executeTakeFirstOrThrow();
      const due = pace
        ? Math.max(now().getTime(), pace.from + ((run.sent + run.failed) / pace.perSecond) * 1000)
        : now().getTime();
      await enqueueJob(db, DISPATCH_JOB, { dispatchLogId }, { runAt: new Date(due), maxAttempts: DISPATCH_ATTEMPTS });
      return;
    }
  }
  await finishRun(db, dispatchLogId);
}

/**
 * Marks a run finished when no message of it is left queued, checked in the same statement: on
 * Postgres another worker may still be writing its last batch (its messages are queued until it
 * commits), and that worker finishes the run after it.
 */
async function finishRun(db: DB, dispatchLogId: number) {
  await db
    .updateTable("bulk_dispatch_logs")
    .set({ status: "finished", finished_at: nowIso() })
    .where("id", "=", dispatchLogId)
    .where("status", "=", "running")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("bulk_transaction_logs")
            .select("id")
            .where("dispatch_log_id", "=", dispatchLogId)
            .where("result", "=", "queued"),
        ),
      ),
    )
    .execute();
}

/**
 * When the dispatch job is given up (it failed ten times, or its worker stopped during its last
 * attempt): the messages still queued are failed — "Resend failed" offers them again — and the run
 * is finished, so it does not show as running for ever.
 */
export async function abandonRun(db: DB, dispatchLogId: number) {
  await writeTransaction(db, async (trx) => {
    const left = await trx
      .updateTable("bulk_transaction_logs")
      .set({ result: "failed", error: "bulk.errors.gave_up" })
      .where("dispatch_log_id", "=", dispatchLogId)
      .where("result", "=", "queued")
      .returning("id")
      .execute();
    await trx
      .updateTable("bulk_dispatch_logs")
      .set((eb) => ({
        status: "finished",
        finished_at: nowIso(),
        failed: eb("failed", "+", left.length),
        started_at: eb.fn.coalesce("started_at", eb.val(nowIso())),
      }))
      .where("id", "=", dispatchLogId)
      .where("status", "<>", "finished")
      .execute();
  });
}

/**
 * One batch: claims up to `size` queued messages of the run and writes them to the outbox; answers
 * how many it took. A message that cannot be written (a fault of its own) is failed with its
 * error, rolled back to before it, and the batch goes on.
 */
async function dispatchBatch(
  trx: DB,
  dispatchLogId: number,
  size: number,
  pace: { perSecond: number; from: number } | undefined,
  options: DispatchOptions,
) {
  let pick = trx
    .selectFrom("bulk_transaction_logs")
    .select("id")
    .where("dispatch_log_id", "=", dispatchLogId)
    .where("result", "=", "queued")
    .orderBy("id")
    .limit(size);
  if (engineOf(trx) === "postgres") pick = pick.forUpdate().skipLocked();
  const ids = (await pick.execute()).map((row) => row.id);
  if (ids.length === 0) return 0;
  const current = nowIso();
  const claimed = await trx
    .updateTable("bulk_transaction_logs")
    .set({ result: "sent", sent_at: current })
    .where("id", "in", ids)
    .where("result", "=", "queued")
    .returning("id")
    .execute();
  if (claimed.length === 0) return 0;
  const run = await trx
    .selectFrom("bulk_dispatch_logs")
    .select(["sent", "failed"])
    .where("id", "=", dispatchLogId)
    .executeTakeFirstOrThrow();
  const logs = await trx
    .selectFrom("bulk_transaction_logs as log")
    .innerJoin("transactions as t", "t.id", "log.transaction_id")
    .innerJoin("bulk_rows as r", (join) =>
      join.onRef("r.id", "=", "log.row_id").onRef("r.merchant_id", "=", "log.merchant_id"),
    )
    .innerJoin("bulk_uploads as b", (join) =>
      join.onRef("b.id", "=", "log.bulk_id").onRef("b.merchant_id", "=", "log.merchant_id"),
    )
    .select([
      "log.id",
      "log.merchant_id",
      "log.channel",
      "log.recipient",
      "t.id as transaction_id",
      "t.state",
      "t.deleted_at",
      "t.expiration_time",
      "t.amount",
      "t.currency_code",
      "t.unit_id",
      "r.lang",
      "b.base_url",
    ])
    .where(
      "log.id",
      "in",
      claimed.map((row) => row.id),
    )
    .orderBy("log.id")
    .execute();
  let failed = 0;
  let written = 0;
  for (const [index, log] of logs.entries()) {
    const payable =
      PAYABLE_STATES.includes(log.state) && !log.deleted_at && (!log.expiration_time || log.expiration_time > current);
    if (!payable) {
      failed++;
      await trx
        .updateTable("bulk_transaction_logs")
        .set({ result: "failed", error: "bulk.errors.not_payable" })
        .where("id", "=", log.id)
        .execute();
      continue;
    }
    // Message n of the run goes out n / perSecond seconds after the run began (at once when its time has passed).
    const sendAt = pace ? new Date(pace.from + ((run.sent + run.failed + index) / pace.perSecond) * 1000) : undefined;
    await sql`savepoint bulk_message`.execute(trx);
    try {
      options.beforeMessage?.({ recipient: log.recipient });
      const link = payUrlOf(log.base_url, log.lang, log.transaction_id);
      const params = await payLinkParams(trx, {
        merchantId: log.merchant_id,
        amount: log.amount,
        currency: log.currency_code,
        link,
        lang: log.lang,
      });
      const message = {
        merchantId: log.merchant_id,
        to: log.recipient,
        template: "pay_link",
        params,
        lang: log.lang,
        sendAt,
      };
      const messageId =
        log.channel === "email"
          ? await queueMail(trx, { ...message, unitId: log.unit_id })
          : await sendSms(trx, message);
      await trx.updateTable("bulk_transaction_logs").set({ message_id: messageId }).where("id", "=", log.id).execute();
      await sql`release savepoint bulk_message`.execute(trx);
    } catch (error) {
      // This message only: what it wrote is undone, it is failed with its error, and the others go out.
      await sql`rollback to savepoint bulk_message`.execute(trx);
      await sql`release savepoint bulk_message`.execute(trx);
      logger.error(
        { message_id: log.id, run_id: dispatchLogId, error: errorField(error) },
        "bulk: a message could not be written",
      );
      failed++;
      await trx
        .updateTable("bulk_transaction_logs")
        .set({ result: "failed", error: "bulk.errors.message_failed" })
        .where("id", "=", log.id)
        .execute();
      continue;
    }
    written++;
    options.afterMessage?.(written);
  }
  await trx
    .updateTable("bulk_dispatch_logs")
    .set((eb) => ({ sent: eb("sent", "+", logs.length - failed), failed: eb("failed", "+", failed) }))
    .where("id", "=", dispatchLogId)
    .execute();
  return claimed.length;
}

/**
 * The latest message of each of a bulk's requests by each channel, when it failed: refused before
 * it was written (the request could no longer be paid), or written and then given up by the mail
 * relay or the text-message provider (`failed`; a message still being retried is not failed yet).
 * Only requests a customer can still pay — not canceled, deleted or expired — are sent again.
 */
function failedMessages(db: DB, merchantId: number, bulkId: number) {
  return db
    .selectFrom("bulk_transaction_logs as log")
    .innerJoin("transactions as t", "t.id", "log.transaction_id")
    .leftJoin("outgoing_mail as mail", (join) =>
      join.onRef("mail.id", "=", "log.message_id").on("log.channel", "=", "email"),
    )
    .leftJoin("outgoing_sms as sms", (join) =>
      join.onRef("sms.id", "=", "log.message_id").on("log.channel", "=", "sms"),
    )
    .select(["log.row_id", "log.transaction_id", "log.channel", "log.recipient"])
    .where("log.merchant_id", "=", merchantId)
    .where("log.bulk_id", "=", bulkId)
    .where((eb) =>
      eb(
        "log.id",
        "=",
        eb
          .selectFrom("bulk_transaction_logs as later")
          .select((inner) => inner.fn.max("later.id").as("id"))
          .where("later.bulk_id", "=", bulkId)
          .whereRef("later.transaction_id", "=", "log.transaction_id")
          .whereRef("later.channel", "=", "log.channel"),
      ),
    )
    .where((eb) =>
      eb.or([eb("log.result", "=", "failed"), eb("mail.status", "=", "failed"), eb("sms.status", "=", "failed")]),
    )
    .where("t.state", "in", PAYABLE_STATES)
    .where("t.deleted_at", "is", null)
    .where((eb) => eb.or([eb("t.expiration_time", "is", null), eb("t.expiration_time", ">", nowIso())]))
    .orderBy("log.id");
}

/** How many of a bulk's failed messages a resend would send. */
export async function countResendable(db: DB, merchantId: number, bulkId: number) {
  return (await failedMessages(db, merchantId, bulkId).execute()).length;
}

/** Locks a bulk of the merchant for a change (its row FOR UPDATE on Postgres; SQLite's write lock is already held). */
async function lockBulk(trx: DB, merchantId: number, bulkId: number) {
  let query = trx
    .selectFrom("bulk_uploads")
    .select(["id", "merchant_id", "schedule", "file_name"])
    .where("id", "=", bulkId)
    .where("merchant_id", "=", merchantId);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Starts a run that sends again, once, each failed message of the bulk whose request is still payable. */
export async function resendFailed(
  db: DB,
  input: { merchantId: number; bulkId: number; actor: Actor },
): Promise<{ ok: true; dispatchLogId: number; count: number } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const bulk = await lockBulk(trx, input.merchantId, input.bulkId);
    if (!bulk) return refuse("api.not_found");
    const failed = await failedMessages(trx, input.merchantId, bulk.id).execute();
    if (failed.length === 0) return refuse("bulk.errors.nothing_to_resend");
    const dispatchLogId = await queueRun(trx, {
      bulk,
      kind: "resend",
      actor: input.actor,
      requestsCreated: 0,
      messages: failed,
    });
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "bulk_resent",
      params: { bulkId: bulk.id, count: failed.length },
      objectType: "bulk",
      objectId: bulk.id,
    });
    return { ok: true as const, dispatchLogId, count: failed.length };
  });
}

/** Makes a bulk recur weekly or monthly from now on, or stops it. */
export async function changeSchedule(
  db: DB,
  input: { merchantId: number; bulkId: number; schedule: Schedule; actor: Actor },
): Promise<{ ok: true; code: string; nextRunAt: string | null } | Refusal> {
  return writeTransaction(db, async (trx) => {
    const bulk = await lockBulk(trx, input.merchantId, input.bulkId);
    if (!bulk) return refuse("api.not_found");
    if (bulk.schedule === input.schedule)
      return { ok: true as const, code: "bulk.schedule_unchanged", nextRunAt: null };
    const current = now();
    const next = input.schedule === "none" ? null : nextRunAt(input.schedule, current, current).toISOString();
    await trx
      .updateTable("bulk_uploads")
      .set({
        schedule: input.schedule,
        schedule_from: input.schedule === "none" ? null : current.toISOString(),
        next_run_at: next,
        ended_at: input.schedule === "none" ? current.toISOString() : null,
      })
      .where("id", "=", bulk.id)
      .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: input.schedule === "none" ? "bulk_schedule_stopped" : "bulk_schedule_set",
      params: { bulkId: bulk.id, schedule: word(`bulk.schedules.${input.schedule}`) },
      objectType: "bulk",
      objectId: bulk.id,
    });
    return {
      ok: true as const,
      code: input.schedule === "none" ? "bulk.schedule_stopped" : "bulk.schedule_saved",
      nextRunAt: next,
    };
  });
}

/**
 * The schedule's job: starts the run of each recurring bulk that is due, once per period however
 * many workers look at once — the run is made in the same transaction as the conditional update
 * that moves `next_run_at` on, which only one of them wins. Answers how many runs it started.
 */
export async function startDueRuns(db: DB) {
  const due = await db
    .selectFrom("bulk_uploads")
    .select(["id", "merchant_id", "schedule", "schedule_from", "next_run_at"])
    .where("next_run_at", "<=", nowIso())
    .where("schedule", "<>", "none")
    .orderBy("next_run_at")
    .limit(50)
    .execute();
  let started = 0;
  for (const bulk of due) {
    if (bulk.schedule === "none" || !bulk.next_run_at || !bulk.schedule_from) continue;
    const installed = hasFeature(await loadAvailableSections(db, bulk.merchant_id), "bulk", "upload");
    const ran = await writeTransaction(db, async (trx) => {
      const current = now();
      const moved = await trx
        .updateTable("bulk_uploads")
        .set((eb) => ({
          next_run_at: nextRunAt(
            bulk.schedule as "weekly" | "monthly",
            new Date(bulk.schedule_from!),
            current,
          ).toISOString(),
          runs: installed ? eb("runs", "+", 1) : eb.ref("runs"),
        }))
        .where("id", "=", bulk.id)
        .where("next_run_at", "=", bulk.next_run_at)
        .where("schedule", "=", bulk.schedule)
        .executeTakeFirst();
      // Another worker took this period, or the merchant no longer has the section (the period passes without a run).
      if (Number(moved.numUpdatedRows) !== 1 || !installed) return false;
      const rows = await trx
        .selectFrom("bulk_rows")
        .selectAll()
        .where("merchant_id", "=", bulk.merchant_id)
        .where("bulk_id", "=", bulk.id)
        .orderBy("row_number")
        .execute();
      const run = await startRun(trx, {
        bulk,
        rows: rows.map(({ id, bulk_id: _, merchant_id: __, ...row }) => ({ id, row })),
        kind: "scheduled",
        actor: null,
      });
      await recordAudit(trx, {
        merchantId: bulk.merchant_id,
        actor: "system",
        action: "bulk_run_started",
        params: { bulkId: bulk.id, count: run.created },
        objectType: "bulk",
        objectId: bulk.id,
      });
      return true;
    });
    if (ran) started++;
  }
  return started;
}
