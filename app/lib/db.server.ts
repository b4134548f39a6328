import { createDatabase, type DB } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { seedDemoMerchantIfEmpty } from "~/db/seed.server";
import { env } from "./env.server";
import { startWorker } from "./jobs.server";

let database: DB | undefined;
let ready: Promise<DB> | undefined;

/** The process's database, migrated, seeded on first boot when asked to, with its worker running. */
export function getDb(): Promise<DB> {
  ready ??= (async () => {
    const config = env();
    database = createDatabase({ databaseUrl: config.DATABASE_URL, sqlitePath: config.SQLITE_PATH });
    await migrateToLatest(database);
    const seedDemo =
      config.SEED_DEMO === undefined ? !config.DATABASE_URL : config.SEED_DEMO === "1" || config.SEED_DEMO === "true";
    if (seedDemo) await seedDemoMerchantIfEmpty(database);
    if (config.WORKER === "on") startWorker(database);
    return database;
  })();
  return ready;
}
