import os from "node:os";
import { sql } from "kysely";
import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import { addMs, now, nowIso, runOnProcessClock } from "./clock.server";

export type JobHandler = (db: DB, payload: any) => Promise<void>;

const handlers = new Map<string, JobHandler>();
const workerId = `${os.hostname()}:${process.pid}`;
const STALE_AFTER_MS = 5 * 60_000;

/** Called when the platform starts (app/boot), for every job type of the core and of the sections. */
export function registerJobHandler(type: string, handler: JobHandler) {
  handlers.set(type, handler);
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

/** Runs queued jobs until none is ready; returns how many ran. Used by the worker and by tests. */
export async function runReadyJobs(db: DB): Promise<number> {
  let count = 0;
  for (;;) {
    const job = await claimJob(db);
    if (!job) return count;
    count++;
    const handler = handlers.get(job.type);
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await handler(db, JSON.parse(job.payload));
      await db
        .updateTable("jobs")
        .set({ status: "done", finished_at: nowIso(), locked_by: null })
        .where("id", "=", job.id)
        .execute();
    } catch (error) {
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
        .execute();
    }
  }
}

async function requeueStaleJobs(db: DB) {
  await db
    .updateTable("jobs")
    .set({ status: "queued", locked_by: null })
    .where("status", "=", "running")
    .where("locked_at", "<", addMs(now(), -STALE_AFTER_MS).toISOString())
    .execute();
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
        await requeueStaleJobs(db);
        await runReadyJobs(db);
      } while (again);
    } catch (error) {
      console.error("worker:", error);
    } finally {
      running = false;
    }
  };
  // A job queued by a request runs on the process's clock, not on that request's (a test's moved clock).
  nudge = () => runOnProcessClock(() => setImmediate(tick));
  const timer = setInterval(tick, 1000);
  if (!options.keepAlive) timer.unref();
}
