import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../support/fixtures";
import { bulkCsv, mailsByRecipient } from "../support/bulk-fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { uploadBulk } from "~/sections/bulk/domain/bulk-upload.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Crash");
});
afterAll(async () => {
  for (const worker of workers) if (worker.exitCode === null) worker.kill("SIGKILL");
  await database?.destroy();
});

/** A worker process (ROLE=worker) on the test database, sending at most `perSecond` bulk messages a second. */
function startWorker(perSecond: number) {
  const output: string[] = [];
  const worker = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      ...database.env,
      NODE_ENV: "production",
      ROLE: "worker",
      SEED_DEMO: "0",
      PORT: "1",
      TEST_CLOCK: "0",
      BULK_SEND_PER_SECOND: String(perSecond),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker.stdout!.on("data", (chunk) => output.push(String(chunk)));
  worker.stderr!.on("data", (chunk) => output.push(String(chunk)));
  workers.push(worker);
  return { worker, output };
}

async function runOf(dispatchLogId: number) {
  return database.db
    .selectFrom("bulk_dispatch_logs")
    .select(["status", "sent", "failed", "total"])
    .where("id", "=", dispatchLogId)
    .executeTakeFirstOrThrow();
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, output: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; worker said: ${output.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a bulk of 1,000 rows and a worker killed half-way", () => {
  it("is sent once to each customer by the worker that takes the job over", async () => {
    const outcome = await uploadBulk(database.db, {
      merchantId: shop.merchantId,
      user: { id: shop.admin.id, username: shop.admin.username },
      fileName: "thousand.csv",
      bytes: Buffer.from(bulkCsv(1000), "utf8"),
      choices: { sendEmail: true, sendSms: false, schedule: "none", lang: "en" },
      baseUrl: "https://pay.example.com",
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));

    // 400 a second: the run takes about 2.5 s, and the worker is killed (SIGKILL, no goodbye) a few batches in.
    const first = startWorker(400);
    await waitFor(
      () => runOf(outcome.dispatchLogId),
      (run) => run.sent >= 200,
      first.output,
    );
    first.worker.kill("SIGKILL");
    await new Promise((resolve) => first.worker.once("exit", resolve));

    const halfway = await runOf(outcome.dispatchLogId);
    expect(halfway.status).toBe("running");
    expect(halfway.sent).toBeGreaterThanOrEqual(200);
    expect(halfway.sent).toBeLessThan(1000);
    // What the killed worker committed, whole: a mail for each message marked sent, none for the others.
    const mailsThen = await mailsByRecipient(database.db, shop.merchantId);
    expect(mailsThen.size).toBe(halfway.sent);
    const marked = await database.db
      .selectFrom("bulk_transaction_logs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("dispatch_log_id", "=", outcome.dispatchLogId)
      .where("result", "<>", "queued")
      .executeTakeFirstOrThrow();
    expect(Number(marked.n)).toBe(halfway.sent);

    // Its job's lease runs out (30 s without a heartbeat): as if that time had passed, then another worker starts.
    await database.db
      .updateTable("jobs")
      .set({ locked_at: new Date(Date.now() - 60_000).toISOString() })
      .where("type", "=", "bulk_dispatch")
      .where("status", "=", "running")
      .execute();
    const second = startWorker(100_000);
    const finished = await waitFor(
      () => runOf(outcome.dispatchLogId),
      (run) => run.status === "finished",
      second.output,
    );
    second.worker.kill("SIGTERM");

    expect(finished).toEqual({ status: "finished", sent: 1000, failed: 0, total: 1000 });
    const mails = await mailsByRecipient(database.db, shop.merchantId);
    expect(mails.size).toBe(1000);
    expect([...mails.values()].filter((count) => count !== 1)).toEqual([]);
  });
});
