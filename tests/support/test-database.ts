import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { createDatabase, type DB } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";

export type TestDatabase = {
  db: DB;
  engine: "sqlite" | "postgres";
  /** Environment that points the app (e.g. the built server) at this database. */
  env: Record<string, string>;
  destroy: () => Promise<void>;
};

/**
 * A fresh, migrated database of the engine this test project runs on; destroy() removes it.
 * `upTo`: migrated only up to that migration (an older installation's schema), or not at all (null).
 */
export async function createTestDatabase(options: { upTo?: string | null } = {}): Promise<TestDatabase> {
  const migrate = (db: DB) =>
    options.upTo === null ? Promise.resolve([]) : migrateToLatest(db, { upTo: options.upTo });
  const engine = process.env.TEST_DB_ENGINE === "postgres" ? "postgres" : "sqlite";
  if (engine === "postgres") {
    const adminUrl = process.env.TEST_POSTGRES_URL;
    if (!adminUrl) throw new Error("TEST_POSTGRES_URL is required for the postgres test project");
    const name = `kp_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = createDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    await migrate(db);
    return {
      db,
      engine,
      env: { DATABASE_URL: url.toString() },
      destroy: async () => {
        await db.destroy();
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-test-"));
  const file = path.join(dir, "test.sqlite");
  const db = createDatabase({ sqlitePath: file });
  await migrate(db);
  return {
    db,
    engine,
    env: { SQLITE_PATH: file },
    destroy: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
