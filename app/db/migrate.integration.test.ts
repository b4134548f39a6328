import SQLite from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { PREPARE_LOCK, prepareDatabase } from "~/boot/start.server";
import { startServerProcess } from "../../tests/support/server-process";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { createDatabase, type DB } from "./database.server";
import { MIGRATION_NAMES, migrateToLatest, pendingMigrations } from "./migrate.server";

let database: TestDatabase | undefined;
const others: DB[] = [];
afterEach(async () => {
  for (const db of others.splice(0)) await db.destroy();
  await database?.destroy();
});

const anotherInstance = (test: TestDatabase) => {
  const db = createDatabase({ databaseUrl: test.env.DATABASE_URL, sqlitePath: test.env.SQLITE_PATH, poolSize: 2 });
  others.push(db);
  return db;
};
const recorded = async (db: DB) =>
  (
    await db
      .selectFrom("kysely_migration" as any)
      .select("name")
      .execute()
  )
    .map((row: { name: string }) => row.name)
    .sort();

describe("migrations", () => {
  it("stop at a given migration and go on from there to the newest", async () => {
    database = await createTestDatabase({ upTo: "0010-transaction-search" });
    expect(await pendingMigrations(database.db)).toEqual(
      MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0010-transaction-search") + 1),
    );
    expect(await migrateToLatest(database.db)).toEqual(MIGRATION_NAMES.slice(10));
    expect(await pendingMigrations(database.db)).toEqual([]);
  });

  it("run once when two instances start on an empty database together: each migration is applied by one of them", async () => {
    database = await createTestDatabase({ upTo: null });
    if (database.engine === "postgres") {
      const [first, second] = await Promise.all([
        prepareDatabase(database.db, false),
        prepareDatabase(anotherInstance(database), false),
      ]);
      expect([...first, ...second].sort()).toEqual([...MIGRATION_NAMES].sort());
    } else {
      // better-sqlite3 waits for a lock synchronously, so two instances on one file are two processes: two servers starting together.
      const env = {
        ...database.env,
        UPLOADS_DIR: `${database.env.SQLITE_PATH}.uploads`,
        REPORTS_DIR: `${database.env.SQLITE_PATH}.reports`,
      };
      const servers = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
      for (const server of servers) if (server.status === "fulfilled") server.value.child.kill("SIGKILL");
      expect(servers.map((server) => server.status)).toEqual(["fulfilled", "fulfilled"]);
    }
    expect(await recorded(database.db)).toEqual([...MIGRATION_NAMES].sort());
    expect(await pendingMigrations(database.db)).toEqual([]);
  }, 60_000);

  it("refuse to run while another run holds their lock", async () => {
    database = await createTestDatabase({ upTo: null });
    const db = anotherInstance(database);
    if (database.engine === "postgres") {
      // Another instance holds the lock: this one waits for it, and migrates nothing meanwhile.
      const holder = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query("select pg_advisory_lock($1)", [PREPARE_LOCK]);
        const run = prepareDatabase(db, false);
        for (;;) {
          const waiting = await holder.query(
            "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted",
          );
          if (waiting.rows[0].n === 1) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const table = await holder.query("select to_regclass('kysely_migration') as name");
        expect(table.rows[0].name).toBeNull();
        await holder.query("select pg_advisory_unlock($1)", [PREPARE_LOCK]);
        expect(await run).toEqual(MIGRATION_NAMES);
      } finally {
        await holder.end();
      }
    } else {
      // Another process is writing (migrating): this one gives up once the wait for the write lock runs out, having applied nothing.
      const holder = new SQLite(database.env.SQLITE_PATH);
      holder.exec("begin immediate");
      await sql`pragma busy_timeout = 100`.execute(db);
      await expect(prepareDatabase(db, false)).rejects.toThrow(/locked/);
      holder.exec("rollback");
      holder.close();
      expect(await db.introspection.getTables({ withInternalKyselyTables: true })).toEqual([]);
      expect(await prepareDatabase(db, false)).toEqual(MIGRATION_NAMES);
    }
  }, 60_000);
});
