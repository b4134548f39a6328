import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareDatabase } from "~/boot/start.server";
import { createDatabase, type DB } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { seedMerchant } from "../../tests/support/fixtures";
import { startServerProcess, type ServerProcess } from "../../tests/support/server-process";
import { backup } from "./backup.server";

/**
 * `npm run backup` under load (SQLite only: Postgres is backed up with pg_dump): a second process
 * keeps making payments while the copy is taken; the copy, put back in place, is a sound database
 * with every payment made before the backup started, and the app starts on it.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kp-backup-"));
const live = path.join(dir, "live", "platform.sqlite");
const uploads = path.join(dir, "live", "uploads");
const reports = path.join(dir, "live", "reports");
let db: DB;
let writer: ChildProcess | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  db = createDatabase({ sqlitePath: live });
  await migrateToLatest(db);
});
afterAll(async () => {
  writer?.kill("SIGKILL");
  server?.child.kill("SIGKILL");
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Another process writing payments as fast as it can, one transaction each: copies of `template` under
 * new ids and order numbers. It prints how many it has committed, every 20.
 */
function startWriter(template: string) {
  const code = `
    import SQLite from "better-sqlite3";
    import { randomBytes } from "node:crypto";
    const db = new SQLite(${JSON.stringify(live)});
    db.pragma("busy_timeout = 5000");
    const columns = db.prepare("select name from pragma_table_info('transactions')").all().map((row) => row.name).filter((name) => name !== "id" && name !== "order_no");
    const insert = db.prepare(\`insert into transactions (id, order_no, \${columns.join(", ")}) select ?, (select max(order_no) + 1 from transactions), \${columns.join(", ")} from transactions where id = ?\`);
    for (let count = 1; ; count++) {
      insert.run(randomBytes(16).toString("hex"), ${JSON.stringify(template)});
      if (count % 20 === 0) process.stdout.write(count + "\\n");
    }
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  let committed = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  child.stdout!.on("data", (chunk) => {
    committed = Math.max(committed, ...String(chunk).trim().split("\n").map(Number));
    for (const wait of waiting.filter((entry) => committed >= entry.count)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  /** Resolves once the writer has committed `count` payments in all. */
  const until = (count: number) =>
    new Promise<void>((resolve) => (committed >= count ? resolve() : waiting.push({ count, resolve })));
  return { child, until, committed: () => committed };
}

describe("a backup under write load", () => {
  it("is a sound copy with every payment made before it started, and of the stored files, and the app starts on it", async () => {
    const shop = await seedMerchant(db, "Backup");
    const made = await createPaymentRequest(db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: PaymentRequestSchema.parse({
        amount: "12.500",
        pg_codes: "knet-sandbox,mpgs-sandbox",
        customer_first_name: "Noura",
        description: "Before the backup",
      }),
      baseUrl: "http://localhost",
      lang: "en",
    });
    if (!made.ok) throw new Error("payment request refused");
    fs.mkdirSync(path.join(uploads, "brand", String(shop.merchantId)), { recursive: true });
    fs.writeFileSync(path.join(uploads, "brand", String(shop.merchantId), "logo.png"), "logo bytes");
    fs.mkdirSync(path.join(reports, String(shop.merchantId)), { recursive: true });
    fs.writeFileSync(path.join(reports, String(shop.merchantId), "transactions.csv"), "a report");
    // An export still being written: its complete file will appear under its own name.
    fs.writeFileSync(path.join(reports, String(shop.merchantId), "big.csv.123.456.part"), "half");

    const load = startWriter(made.transaction.id);
    writer = load.child;
    await load.until(200);
    // Every payment committed before the backup starts must be in it.
    const before = (await db.selectFrom("transactions").select("id").execute()).map((row) => row.id);
    const target = path.join(dir, "backups", "platform.sqlite");
    const result = await backup({ sqlitePath: live, folders: { uploads, reports } }, target);
    // The writer went on through the backup and after it.
    const during = load.committed();
    await load.until(during + 20);
    writer.kill("SIGKILL");

    expect(result).toMatchObject({ file: target, files: { folder: `${target}.files`, count: 2 } });
    expect(fs.readdirSync(path.dirname(target)).sort()).toEqual(["platform.sqlite", "platform.sqlite.files"]);
    expect(
      fs.readFileSync(path.join(`${target}.files`, "uploads", "brand", String(shop.merchantId), "logo.png"), "utf8"),
    ).toBe("logo bytes");
    expect(fs.readdirSync(path.join(`${target}.files`, "reports", String(shop.merchantId)))).toEqual([
      "transactions.csv",
    ]);

    // The restore (README, "Backups"): the app stopped, the backup and its files put in place of the live ones.
    await db.destroy();
    for (const file of [live, `${live}-wal`, `${live}-shm`]) fs.rmSync(file, { force: true });
    fs.copyFileSync(target, live);
    fs.rmSync(uploads, { recursive: true });
    fs.rmSync(reports, { recursive: true });
    fs.cpSync(path.join(`${target}.files`, "uploads"), uploads, { recursive: true });
    fs.cpSync(path.join(`${target}.files`, "reports"), reports, { recursive: true });

    db = createDatabase({ sqlitePath: live });
    expect(await prepareDatabase(db, false)).toEqual([]);
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    expect(integrity.rows).toEqual([{ integrity_check: "ok" }]);
    const restored = new Set((await db.selectFrom("transactions").select("id").execute()).map((row) => row.id));
    expect(before.filter((id) => !restored.has(id))).toEqual([]);
    expect(restored.size).toBeGreaterThanOrEqual(before.length);
    const first = await db
      .selectFrom("transactions")
      .select(["amount", "state"])
      .where("id", "=", made.transaction.id)
      .executeTakeFirstOrThrow();
    expect(first).toEqual({ amount: 12_500, state: "created" });

    server = await startServerProcess({ SQLITE_PATH: live, UPLOADS_DIR: uploads, REPORTS_DIR: reports });
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toMatchObject({ checks: { database: "ok", storage: "ok" } });
  }, 120_000);
});
