import { sql } from "kysely";
import type { DB } from "~/db/database.server";
import { pendingMigrations } from "~/db/migrate.server";
import { workerTakesJobs } from "./jobs.server";
import { probeStorage } from "./storage.server";

export type Readiness = {
  ready: boolean;
  /** "ok", or a short reason that names no file, address or error text. */
  checks: { database: string; storage: string; worker: string };
};

/** Only a code leaves a failed check: an error's text may hold a path, a host or a connection string. */
async function check(run: () => Promise<string>, failed: string): Promise<string> {
  try {
    return await run();
  } catch {
    return failed;
  }
}

/**
 * Whether this instance can serve (GET /readyz): its database answers and has every migration this
 * code has, its storage takes a file, and a worker somewhere takes the jobs (decision 0040).
 */
export async function readiness(db: DB): Promise<Readiness> {
  const [database, storageCheck, worker] = await Promise.all([
    check(async () => {
      await sql`select 1`.execute(db);
      return (await pendingMigrations(db)).length === 0 ? "ok" : "migrations pending";
    }, "unreachable"),
    check(async () => {
      await probeStorage();
      return "ok";
    }, "not writable"),
    check(async () => ((await workerTakesJobs(db)) ? "ok" : "jobs waiting"), "unreachable"),
  ]);
  const checks = { database, storage: storageCheck, worker };
  return { ready: Object.values(checks).every((value) => value === "ok"), checks };
}
