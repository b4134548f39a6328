import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { requestExport } from "~/domain/reporting/exports.server";
import { seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let worker: ChildProcess | undefined;
const reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-worker-reports-"));

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Worker");
});
afterAll(async () => {
  worker?.kill("SIGTERM");
  await database?.destroy();
  fs.rmSync(reportsDir, { recursive: true, force: true });
});

describe("a worker process (ROLE=worker)", () => {
  it("runs every kind of job though it serves no page, an export among them", async () => {
    const asked = await requestExport(database.db, {
      merchantId: shop.merchantId,
      user: { id: shop.admin.id, username: shop.admin.username, is_superuser: 1, permissions: [] },
      section: "payment_request",
      query: "",
      fileFormat: "csv",
      exportType: "default",
      language: "ar",
    });
    if (!asked.ok) throw new Error("export refused");
    const output: string[] = [];
    worker = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        ...database.env,
        NODE_ENV: "production",
        ROLE: "worker",
        SEED_DEMO: "0",
        REPORTS_DIR: reportsDir,
        PORT: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (chunk) => output.push(String(chunk)));
    worker.stderr!.on("data", (chunk) => output.push(String(chunk)));
    let report: { state: string; error: string | null } | undefined;
    for (let waited = 0; waited < 200; waited++) {
      report = await database.db
        .selectFrom("reports")
        .select(["state", "error"])
        .where("id", "=", asked.id)
        .executeTakeFirstOrThrow();
      if (report.state === "done" || report.state === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(report, output.join("")).toEqual({ state: "done", error: null });
    expect(output.join("")).toContain("Worker running");
    expect(worker.exitCode).toBeNull();
  });

  it("prepares an empty database once when three processes start on it together", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-boot-"));
    const target = await emptyDatabase(dir);
    try {
      const started = await Promise.all(
        [1, 2, 3].map(() =>
          startUntilWorkerRuns([], {
            ...process.env,
            ROLE: "worker",
            ...target.env,
            SEED_DEMO: "1",
            DEMO_ACTIVITY: "0",
          }),
        ),
      );
      for (const { output } of started) expect(output).toContain("Worker running");
      const db = createDatabase(
        target.env.DATABASE_URL ? { databaseUrl: target.env.DATABASE_URL } : { sqlitePath: target.env.SQLITE_PATH },
      );
      try {
        expect(await db.selectFrom("merchants").select("name").execute()).toEqual([{ name: "Demo Store" }]);
        expect(await db.selectFrom("users").select("id").execute()).toHaveLength(5);
      } finally {
        await db.destroy();
      }
    } finally {
      await target.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the release step and the role flag", () => {
  it("npm run migrate prepares an empty database once, and then finds nothing to do", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-migrate-"));
    const target = await emptyDatabase(dir);
    const run = promisify(execFile);
    const options = { env: { ...process.env, NODE_ENV: "production", ...target.env, SEED_DEMO: "0" }, timeout: 60_000 };
    try {
      const first = await run("node", ["scripts/migrate.js"], options);
      expect(first.stdout).toMatch(/^Migrated .*0001/m);
      const db = createDatabase(
        target.env.DATABASE_URL ? { databaseUrl: target.env.DATABASE_URL } : { sqlitePath: target.env.SQLITE_PATH },
      );
      try {
        // The schema is there (an empty merchants table), and no demo merchant without SEED_DEMO.
        expect(await db.selectFrom("merchants").select("id").execute()).toEqual([]);
      } finally {
        await db.destroy();
      }
      const second = await run("node", ["scripts/migrate.js"], options);
      expect(second.stdout).toContain("no migration to run");
    } finally {
      await target.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it("npm run serve -- --role worker runs the worker alone, and an unknown role stops the process with the reason", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-role-"));
    const target = await emptyDatabase(dir);
    const { ROLE: _ignored, ...inherited } = process.env;
    const start = (role: string) =>
      startUntilWorkerRuns(["--role", role], { ...inherited, ...target.env, SEED_DEMO: "0" });
    try {
      const worker = await start("worker");
      expect(worker.output).toContain("role: worker");
      expect(worker.output).toContain("Worker running");
      const wrong = await start("everything");
      expect(wrong.code).toBe(1);
      expect(wrong.output).toContain("must be web, worker or all");
      expect(wrong.output).not.toContain("Database ready");
    } finally {
      await target.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Starts `node server.js` in production on no usable port and stops it once its worker runs: what it printed, and its exit code. */
function startUntilWorkerRuns(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.js", ...args], {
      env: { ...env, NODE_ENV: "production", PORT: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += String(chunk);
      if (output.includes("Worker running")) child.kill("SIGTERM");
    });
    child.stderr!.on("data", (chunk) => (output += String(chunk)));
    child.on("exit", (code) => resolve({ output, code }));
  });
}

/** A database nothing has touched yet, of this test project's engine. */
async function emptyDatabase(dir: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (process.env.TEST_DB_ENGINE !== "postgres" || !adminUrl)
    return { env: { SQLITE_PATH: path.join(dir, "fresh.sqlite"), DATABASE_URL: "" }, drop: async () => {} };
  const name = `kp_boot_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
