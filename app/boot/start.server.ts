import { errorField, log } from "~/lib/log.server";
import { sql } from "kysely";
import { createDatabase, engineOf, poolOf, writeTransaction, type DB } from "~/db/database.server";
import { registerMetricsCollectors } from "./metrics-collectors.server";
import { migrateToLatest } from "~/db/migrate.server";
import { demoMode, env, roleOf, sandboxEnabled } from "~/lib/env.server";
import { startWorker } from "~/lib/jobs.server";
import { recoverInterruptedExports } from "~/domain/reporting/exports.server";
import { hashPassword } from "~/domain/identity/password-hashing.server";
import { prepareSandboxes } from "~/domain/sandbox/accounts.server";
import { DEMO_PASSWORD, seedDemoMerchantIfEmpty } from "./demo-seed.server";
import { wirePlatform } from "./wiring.server";

let database: DB | undefined;
let ready: Promise<DB> | undefined;

/** An arbitrary constant: the Postgres advisory lock under which one instance prepares the database. */
export const PREPARE_LOCK = 7_411_001;

/**
 * Migrations and the demo seed, once however many instances start together: on Postgres the first
 * takes an advisory lock and the others wait for it, then find nothing left to do.
 */
export async function prepareDatabase(db: DB, seedDemo: boolean): Promise<string[]> {
  // The slow part of the seed, hashing the demo password, is done before any lock is taken.
  const password = seedDemo ? { hash: await hashPassword(DEMO_PASSWORD) } : undefined;
  if (engineOf(db) === "postgres") {
    return db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${PREPARE_LOCK})`.execute(connection);
      try {
        const applied = await migrateToLatest(db);
        if (password) await seedDemoMerchantIfEmpty(db, password);
        return applied;
      } finally {
        await sql`select pg_advisory_unlock(${PREPARE_LOCK})`.execute(connection);
      }
    });
  }
  // One writer at a time on the SQLite file, and DDL is transactional there: a second process waits
  // for the first's migrations and seed, then finds nothing left to do.
  return writeTransaction(db, async (trx) => {
    const applied = await migrateToLatest(trx);
    if (password) await seedDemoMerchantIfEmpty(trx, password);
    return applied;
  });
}

/**
 * The process's database, prepared and wired, with the background worker running when this
 * process's role includes it (ROLE: web, worker or all). Every request and job goes through here.
 */
export function platform(): Promise<DB> {
  ready ??= (async () => {
    const config = env();
    database = createDatabase({ databaseUrl: config.DATABASE_URL, sqlitePath: config.SQLITE_PATH });
    await prepareDatabase(database, demoMode(config));
    await prepareSandboxes(database);
    await wirePlatform();
    registerMetricsCollectors(database, poolOf(database));
    if (roleOf(config) !== "web") {
      // Exports a stopped worker left half-made are settled before this worker takes any job.
      await recoverInterruptedExports(database).catch((error: unknown) =>
        log.error({ error: errorField(error) }, "worker: recovering exports failed"),
      );
      startWorker(database, { keepAlive: roleOf(config) === "worker" });
    }
    return database;
  })();
  return ready;
}

/** At server start: validates the environment, prepares the database, wires the platform, starts the worker. */
export async function bootstrap() {
  const config = env();
  await platform();
  return {
    database: config.DATABASE_URL ? "postgres" : `sqlite (${config.SQLITE_PATH})`,
    role: roleOf(config),
    sandbox: sandboxEnabled(config),
    trustProxy: config.TRUST_PROXY,
  };
}
