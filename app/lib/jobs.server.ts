import { errorField, inRequestScope, log } from "~/lib/log.server";
import os from "node:os";
import { sql } from "kysely";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { addMs, now, nowIso, runOnProcessClock } from "./clock.server";

export type JobHandler = (db: DB, payload: any) => Promise<void>;

const handlers = new Map<string, JobHandler>();
const giveUpHandlers = new Map<string, JobHandler>();
const workerId = `${os.hostname()}:${process.pid}`;
/**
 * A running job's lease: its worker renews it every few seconds while the handler runs; a job whose
 * lease ran out (its worker died, or froze) is taken again by any worker. Handlers are written to
 * run again safely (at least once).
 */
export const JOB_LEASE_MS = 30_000;
const HEARTBEAT_MS = 5_000;

export type JobOptions = {
  /**
   * Runs once the job is given up (its last attempt failed, or its worker stopped during it), so that
   * what it was making does not look unfinished for ever.
   */
  onGiveUp?: JobHandler;
};

/** Called when the platform starts (app/boot), for every job type of the core and of the sections. */
export function registerJobHandler(type: string, handler: JobHandler, options: JobOptions = {}) {
  handlers.set(type, handler);
  if (options.onGiveUp) giveUpHandlers.set(type, options.onGiveUp);
  else giveUpHandlers.delete(type);
}

async function giveUp(db: DB, job: { type: string; payload: string }) {
  const handler = giveUpHandlers.get(job.type);
  if (!handler) return;
  try {
    await handler(db, JSON.parse(job.payload));
  } catch (error) {
    log.error({ job_type: job.type, error: errorField(error) }, "worker: giving up a job failed");
  }
}

export function hasJobHandler(type: string) {
  return handlers.has(type);
}

/** Queues work to run after the current request; call it inside the transaction that caused it. */
export async function enqueueJob(
  db: DB,
  type: string,
  payload: unknown,
  options: { runAt?: Date; maxAttempts?: number } = {},
) {
  const created = nowIso();
  await db
    .insertInto("jobs")
    .values({
      type,
      payload: JSON.stringify(payload),
      status: "queued",
      run_at: (options.runAt ?? now()).toISOString(),
      max_attempts: options.maxAttempts ?? 5,
      created_at: created,
    })
    .execute();
  nudge?.();
}

async function claimJob(db: DB) {
  const current = nowIso();
  if (engineOf(db) === "postgres") {
    return db
      .updateTable("jobs")
      .set({ status: "running", locked_by: workerId, locked_at: current, attempts: sql`attempts + 1` })
      .where(
        "id",
        "=",
        db
          .selectFrom("jobs")
          .select("id")
          .where("status", "=", "queued")
          .where("run_at", "<=", current)
          .orderBy("run_at")
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
  }
  return writeTransaction(db, async (trx) => {
    const next = await trx
      .selectFrom("jobs")
      .select("id")
      .where("status", "=", "queued")
      .where("run_at", "<=", current)
      .orderBy("run_at")
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    return trx
      .updateTable("jobs")
      .set({ status: "running", locked_by: workerId, locked_at: current, attempts: sql`attempts + 1` })
      .where("id", "=", next.id)
      .returningAll()
      .executeTakeFirst();
  });
}

/** Renews a running job's lease while its handler runs. */
function keepLease(db: DB, jobId: number, everyMs: number) {
  const timer = setInterval(() => {
    runOnProcessClock(() => {
      db.updateTable("jobs")
        .set({ locked_at: nowIso() })
        .where("id", "=", jobId)
        .where("status", "=", "running")
        .where("locked_by", "=", workerId)
        .execute()
        .catch((error: unknown) => log.error({ error: errorField(error) }, "worker: lease renewal failed"));
    });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Takes back the ready jobs whose worker died, then runs queued jobs until none is ready; returns
 * how many ran. Used by the worker and by tests.
 */
export async function runReadyJobs(db: DB, options: { heartbeatMs?: number } = {}): Promise<number> {
  await requeueStaleJobs(db);
  let count = 0;
  for (;;) {
    const job = await claimJob(db);
    if (!job) return count;
    count++;
    await inRequestScope({ requestId: `job-${job.id}` }, () =>
      runClaimed(db, job, options.heartbeatMs ?? HEARTBEAT_MS),
    );
  }
}

type ClaimedJob = NonNullable<Awaited<ReturnType<typeof claimJob>>>;

/** Runs one claimed job and records what became of it: done, queued again, or failed for good; one log line says which. */
async function runClaimed(db: DB, job: ClaimedJob, heartbeatMs: number) {
  const started = performance.now();
  const line = { job_id: job.id, job_type: job.type, attempt: job.attempts };
  const handler = handlers.get(job.type);
  const release = keepLease(db, job.id, heartbeatMs);
  try {
    if (!handler) throw new Error(`No handler for job type ${job.type}`);
    await handler(db, JSON.parse(job.payload));
    release();
    await db
      .updateTable("jobs")
      .set({ status: "done", finished_at: nowIso(), locked_by: null })
      .where("id", "=", job.id)
      .where("locked_by", "=", workerId)
      .execute();
    log.info({ ...line, outcome: "done", duration_ms: Math.round(performance.now() - started) }, "job");
  } catch (error) {
    release();
    const finalAttempt = job.attempts >= job.max_attempts;
    const retryAt = addMs(now(), Math.min(2 ** job.attempts * 1000, 10 * 60_000));
    await db
      .updateTable("jobs")
      .set({
        status: finalAttempt ? "failed" : "queued",
        run_at: finalAttempt ? job.run_at : retryAt.toISOString(),
        last_error: String(error instanceof Error ? error.message : error).slice(0, 2000),
        finished_at: finalAttempt ? nowIso() : null,
        locked_by: null,
      })
      .where("id", "=", job.id)
      .where("locked_by", "=", workerId)
      .execute();
    log.warn(
      {
        ...line,
        outcome: finalAttempt ? "failed" : "retry",
        duration_ms: Math.round(performance.now() - started),
        error: errorField(error),
      },
      "job",
    );
    if (finalAttempt) await giveUp(db, job);
  }
}

/** Jobs whose lease ran out go back to the queue (a job that used its last attempt fails, and is given up). */
export async function requeueStaleJobs(db: DB) {
  const stale = addMs(now(), -JOB_LEASE_MS).toISOString();
  const exhausted = await db
    .selectFrom("jobs")
    .select(["id", "type", "payload"])
    .where("status", "=", "running")
    .where("locked_at", "<", stale)
    .where((eb) => eb("attempts", ">=", eb.ref("max_attempts")))
    .execute();
  for (const job of exhausted) {
    // Conditional, so that of several workers looking at once one gives it up.
    const failed = await db
      .updateTable("jobs")
      .set({
        status: "failed",
        locked_by: null,
        finished_at: nowIso(),
        last_error: "Its worker stopped while running it",
      })
      .where("id", "=", job.id)
      .where("status", "=", "running")
      .where("locked_at", "<", stale)
      .executeTakeFirst();
    if (Number(failed.numUpdatedRows) === 1) await giveUp(db, job);
  }
  // Only jobs with attempts left: one that went stale after the look above is given up at the next pass, not run again.
  await db
    .updateTable("jobs")
    .set({ status: "queued", locked_by: null, run_at: nowIso() })
    .where("status", "=", "running")
    .where("locked_at", "<", stale)
    .where((eb) => eb("attempts", "<", eb.ref("max_attempts")))
    .execute();
}

export const PRUNE_JOBS_JOB = "prune_jobs";

/** Done jobs are kept three days (to look into), failed ones thirty; the scheduled ones would otherwise pile up. */
export async function pruneFinishedJobs(db: DB) {
  await db
    .deleteFrom("jobs")
    .where("status", "=", "done")
    .where("finished_at", "<", addMs(now(), -3 * 86_400_000).toISOString())
    .execute();
  await db
    .deleteFrom("jobs")
    .where("status", "=", "failed")
    .where("finished_at", "<", addMs(now(), -30 * 86_400_000).toISOString())
    .execute();
}

/** `startAfterMs`: the first run waits this long after the first start instead of running at once. */
type Schedule = { type: string; everyMs: number; startAfterMs?: number };
const schedules = new Map<string, Schedule>();

/** A job queued every `everyMs` by whichever worker sees it due first (app/boot registers them). */
export function registerSchedule(name: string, schedule: Schedule) {
  schedules.set(name, schedule);
}

/**
 * Queues each scheduled job that is due, once across all workers: the next run time is kept in
 * app_settings and moved by a conditional update that only one worker wins.
 */
export async function enqueueDueSchedules(db: DB) {
  for (const [name, schedule] of schedules) {
    const key = `schedule:${name}`;
    const current = now();
    const next = addMs(current, schedule.everyMs).toISOString();
    const row = await db.selectFrom("app_settings").select("value").where("key", "=", key).executeTakeFirst();
    let won: boolean;
    if (!row) {
      const first = schedule.startAfterMs === undefined ? next : addMs(current, schedule.startAfterMs).toISOString();
      const inserted = await db
        .insertInto("app_settings")
        .values({ key, value: first })
        .onConflict((conflict) => conflict.column("key").doNothing())
        .executeTakeFirst();
      won = schedule.startAfterMs === undefined && Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    } else {
      if (row.value > current.toISOString()) continue;
      const moved = await db
        .updateTable("app_settings")
        .set({ value: next })
        .where("key", "=", key)
        .where("value", "=", row.value)
        .executeTakeFirst();
      won = Number(moved.numUpdatedRows) === 1;
    }
    if (won) await enqueueJob(db, schedule.type, {}, { maxAttempts: 1 });
  }
}

/** How long work may wait untaken before readiness says no worker is taking jobs. */
export const WORKER_STALL_MS = 60_000;

/**
 * Whether some worker, in any process, is taking jobs: no work has waited a minute, or a worker took
 * a job in the last minute. Work is a queued job that was ready, or a scheduled run that was due (the
 * reconciler's every 15 s: a worker's every poll moves it, so a dead worker is seen with an empty
 * queue too). A claim writes the job's locked_at and a running job's lease renews it every 5 s, so a
 * recent locked_at is a worker at work: a backlog being worked through, or one long job, is no stall.
 * Nothing is written for it; the second look, which no index serves, runs only when work waits.
 */
export async function workerTakesJobs(db: DB): Promise<boolean> {
  const since = addMs(now(), -WORKER_STALL_MS).toISOString();
  const waitingJob = await db
    .selectFrom("jobs")
    .select("id")
    .where("status", "=", "queued")
    .where("run_at", "<=", since)
    .limit(1)
    .executeTakeFirst();
  const dueSchedule = waitingJob
    ? undefined
    : await db
        .selectFrom("app_settings")
        .select("key")
        .where("key", "like", "schedule:%")
        .where("value", "<=", since)
        .limit(1)
        .executeTakeFirst();
  if (!waitingJob && !dueSchedule) return true;
  const taken = await db.selectFrom("jobs").select("id").where("locked_at", ">=", since).limit(1).executeTakeFirst();
  return taken !== undefined;
}

let nudge: (() => void) | undefined;
let started = false;

/**
 * The in-process worker: polls every second, and at once when a job is queued in this process.
 * `keepAlive` keeps a worker-only process running; beside a web server it lets the process end.
 */
export function startWorker(db: DB, options: { keepAlive?: boolean } = {}) {
  if (started) return;
  started = true;
  let running = false;
  let again = false;
  const tick = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await enqueueDueSchedules(db);
        await runReadyJobs(db);
      } while (again);
    } catch (error) {
      log.error({ error: errorField(error) }, "worker");
    } finally {
      running = false;
    }
  };
  // A job queued by a request runs on the process's clock, not on that request's (a test's moved clock).
  nudge = () => runOnProcessClock(() => setImmediate(tick));
  const timer = setInterval(tick, 1000);
  if (!options.keepAlive) timer.unref();
}
