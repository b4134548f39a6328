// `npm run migrate` brings the database this installation uses (DATABASE_URL, else SQLITE_PATH, else
// ./data/platform.sqlite) to the latest schema, with the demo merchant on a demo installation
// (SEED_DEMO), and exits: the release step of a deployment, run once before new instances start.
// Instances prepare the database at start too, under the same lock, and then find nothing to do, so
// an instance that starts first, or several starting together, never race the step.
import { loadApp } from "./lib/volume.js";

const app = await loadApp();
try {
  const { env, demoMode } = await app.load("/app/lib/env.server.ts");
  const { prepareDatabase } = await app.load("/app/boot/start.server.ts");
  const config = env();
  const db = app.database.createDatabase({ databaseUrl: config.DATABASE_URL, sqlitePath: config.SQLITE_PATH });
  try {
    const applied = await prepareDatabase(db, demoMode(config));
    const where = config.DATABASE_URL ? "postgres" : `sqlite (${config.SQLITE_PATH})`;
    console.log(
      applied.length
        ? `Migrated ${where}: ${applied.join(", ")}`
        : `Database ${where} is up to date: no migration to run.`,
    );
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(`migrate failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await app.close();
}
