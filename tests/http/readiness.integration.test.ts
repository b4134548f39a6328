import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_NAMES } from "~/db/migrate.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { loadApp, type TestApp } from "../support/http-app";

/** GET /readyz: 200 while the instance can serve, 503 naming each check that fails. */
let database: TestDatabase;
let app: TestApp;
const files = fs.mkdtempSync(path.join(os.tmpdir(), "kp-readiness-"));
const storageRoot = path.join(files, "storage");

beforeAll(async () => {
  database = await createTestDatabase();
  app = await loadApp({
    ...database.env,
    SEED_DEMO: "0",
    UPLOADS_DIR: path.join(storageRoot, "uploads"),
    REPORTS_DIR: path.join(storageRoot, "reports"),
  });
});
afterAll(async () => {
  await database?.destroy();
  fs.rmSync(files, { recursive: true, force: true });
});
afterEach(async () => {
  await database.db.deleteFrom("jobs").execute();
  await database.db.deleteFrom("app_settings").where("key", "like", "schedule:%").execute();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function readiness() {
  const response = await app.request("/readyz");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  return { status: response.status, body: await response.json() };
}

async function queueJob(values: { status: "queued" | "done" | "running"; run_at: string; locked_at?: string }) {
  await database.db
    .insertInto("jobs")
    .values({
      type: "send_mail",
      payload: "{}",
      max_attempts: 5,
      created_at: values.run_at,
      locked_at: values.locked_at ?? null,
      ...values,
    })
    .execute();
}

describe("readiness", () => {
  it("answers 200 with each check when the database, the storage and the worker are fine", async () => {
    expect(await readiness()).toEqual({
      status: 200,
      body: { status: "ready", checks: { database: "ok", storage: "ok", worker: "ok" } },
    });
    // Its probe leaves nothing in the storage.
    expect(fs.readdirSync(path.join(storageRoot, "uploads"))).toEqual([]);
    expect(fs.readdirSync(path.join(storageRoot, "reports"))).toEqual([]);
  });

  it("answers 503 when the database is behind the code's newest migration", async () => {
    const newest = MIGRATION_NAMES.at(-1)!;
    const row = await database.db
      .selectFrom("kysely_migration" as any)
      .selectAll()
      .where("name", "=", newest)
      .executeTakeFirstOrThrow();
    await database.db
      .deleteFrom("kysely_migration" as any)
      .where("name", "=", newest)
      .execute();
    try {
      expect(await readiness()).toEqual({
        status: 503,
        body: {
          status: "not ready",
          failed: ["database"],
          checks: { database: "migrations pending", storage: "ok", worker: "ok" },
        },
      });
    } finally {
      await database.db
        .insertInto("kysely_migration" as any)
        .values(row)
        .execute();
    }
    expect((await readiness()).status).toBe(200);
  });

  it("answers 503 when the storage cannot be written, and says nothing of where it is", async () => {
    // Its folders' parent becomes a file: nothing can be made beneath it, whoever the process runs as.
    fs.rmSync(storageRoot, { recursive: true, force: true });
    fs.writeFileSync(storageRoot, "");
    try {
      const { status, body } = await readiness();
      expect(status).toBe(503);
      expect(body).toEqual({
        status: "not ready",
        failed: ["storage"],
        checks: { database: "ok", storage: "not writable", worker: "ok" },
      });
    } finally {
      fs.rmSync(storageRoot, { force: true });
    }
    expect((await readiness()).status).toBe(200);
  });

  it("answers 503 when a job has waited a minute and no worker took one, and 200 while a worker works through a backlog", async () => {
    // Ready half a minute ago: a polling worker takes it within a second, no alarm yet.
    await queueJob({ status: "queued", run_at: minutesAgo(0.5) });
    expect((await readiness()).status).toBe(200);
    await queueJob({ status: "queued", run_at: minutesAgo(2) });
    expect(await readiness()).toEqual({
      status: 503,
      body: {
        status: "not ready",
        failed: ["worker"],
        checks: { database: "ok", storage: "ok", worker: "jobs waiting" },
      },
    });
    // A job taken two minutes ago is no sign of a worker now.
    await queueJob({ status: "done", run_at: minutesAgo(3), locked_at: minutesAgo(2) });
    expect((await readiness()).status).toBe(503);
    // A worker took one just now: it is working through the queue.
    await queueJob({ status: "running", run_at: minutesAgo(1), locked_at: minutesAgo(0.1) });
    expect(await readiness()).toEqual({
      status: 200,
      body: { status: "ready", checks: { database: "ok", storage: "ok", worker: "ok" } },
    });
  });

  it("answers 503 when a scheduled run has been due a minute with no worker to queue it, the queue being empty", async () => {
    await database.db
      .insertInto("app_settings")
      .values({ key: "schedule:reconciler", value: minutesAgo(0.5) })
      .execute();
    expect((await readiness()).status).toBe(200);
    await database.db
      .updateTable("app_settings")
      .set({ value: minutesAgo(2) })
      .where("key", "=", "schedule:reconciler")
      .execute();
    expect(await readiness()).toMatchObject({ status: 503, body: { failed: ["worker"] } });
  });
});
