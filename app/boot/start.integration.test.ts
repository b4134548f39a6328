import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type DB } from "~/db/database.server";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { prepareDatabase } from "./start.server";

let database: TestDatabase;
const others: DB[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const db of others) await db.destroy();
  await database?.destroy();
});

describe("starting several instances at once", () => {
  it("migrates and seeds the demo merchant once", async () => {
    // Three instances, each with connections of its own, prepare the same empty database together.
    const instances = [
      database.db,
      ...[1, 2].map(() =>
        createDatabase({ databaseUrl: database.env.DATABASE_URL, sqlitePath: database.env.SQLITE_PATH, poolSize: 2 }),
      ),
    ];
    others.push(...instances.slice(1));
    await Promise.all(instances.map((db) => prepareDatabase(db, true)));
    const merchants = await database.db.selectFrom("merchants").select("name").execute();
    expect(merchants).toEqual([{ name: "Demo Store" }]);
    const users = await database.db.selectFrom("users").select("username").execute();
    expect(users).toHaveLength(5);
  }, 60_000);
});
