import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import {
  bulkCsv,
  countOf,
  mailsByRecipient,
  refuseMailAttemptTo,
  refuseMailTo,
} from "../../../../tests/support/bulk-fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { engineOf, type DB } from "~/db/database.server";
import { setSmsProvider } from "~/domain/messaging/sms.server";
import { advanceClock, now, resetClock } from "~/lib/clock.server";
import { enqueueJob, requeueStaleJobs, runReadyJobs } from "~/lib/jobs.server";
import { listTransactionLogs, loadBulk } from "./bulk-queries.server";
import { countResendable, dispatchRun, DISPATCH_JOB, resendFailed } from "./bulk-runs.server";
import { uploadBulk, type UploadChoices } from "./bulk-upload.server";

/**
 * Sending a bulk's messages: failures that are final only once the mail or SMS job gives up, a
 * message of its own failing without stopping the others, a worker cut off inside a batch, a run
 * given up, runs sent in slices that let other jobs through, and what "Resend failed" offers.
 */

let database: TestDatabase;
const choices: UploadChoices = { sendEmail: true, sendSms: false, schedule: "none", lang: "en" };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(() => {
  resetClock();
  setSmsProvider(undefined);
});
afterAll(async () => {
  await database?.destroy();
});

async function merchant(prefix: string) {
  const shop = await seedMerchant(database.db, prefix);
  return { ...shop, user: { id: shop.admin.id, username: shop.admin.username } };
}

async function upload(shop: Awaited<ReturnType<typeof merchant>>, csv: string, extra: Partial<UploadChoices> = {}) {
  const outcome = await uploadBulk(database.db, {
    merchantId: shop.merchantId,
    user: shop.user,
    fileName: "rent.csv",
    bytes: Buffer.from(csv, "utf8"),
    choices: { ...choices, ...extra },
    baseUrl: "https://pay.example.com",
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return outcome;
}

function runOf(db: DB, dispatchLogId: number) {
  return db
    .selectFrom("bulk_dispatch_logs")
    .select(["status", "sent", "failed", "total"])
    .where("id", "=", dispatchLogId)
    .executeTakeFirstOrThrow();
}

/** Runs the queued jobs, moving the clock on between passes so that each retry comes due. */
async function runJobsThroughRetries(passes: number) {
  for (let pass = 0; pass < passes; pass++) {
    await runReadyJobs(database.db);
    advanceClock(11 * 60_000);
  }
}

describe("a message the mail relay or the SMS provider refuses", () => {
  it("is failed, and offered again, only once its sending job gives up — not while it retries", async () => {
    const shop = await merchant("Retry");
    const outcome = await upload(shop, bulkCsv(3));
    await dispatchRun(database.db, outcome.dispatchLogId);
    // The relay refused a first attempt; the send_mail job will try again: not failed yet.
    await refuseMailAttemptTo(database.db, shop.merchantId, "bulk-1@example.com");
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .select("id")
      .where("merchant_id", "=", shop.merchantId)
      .where("to_address", "=", "bulk-1@example.com")
      .executeTakeFirstOrThrow();
    await enqueueJob(database.db, "send_mail", { mailId: mail.id }, { maxAttempts: 2 });
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(0);
    expect(
      (
        await listTransactionLogs(database.db, shop.merchantId, outcome.dispatchLogId, {
          result: "failed",
          limit: 10,
          offset: 0,
        })
      ).count,
    ).toBe(0);
    expect(await loadBulk(database.db, shop.merchantId, outcome.bulkId)).toMatchObject({ sent: 3, failed: 0 });

    // Its attempts run out (no mail server answers): the mail is failed, with the relay's last words.
    await runJobsThroughRetries(3);
    expect(
      await database.db
        .selectFrom("outgoing_mail")
        .select(["status", "error"])
        .where("id", "=", mail.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "failed", error: "421 try again later" });
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(1);
    const failed = await listTransactionLogs(database.db, shop.merchantId, outcome.dispatchLogId, {
      result: "failed",
      limit: 10,
      offset: 0,
    });
    expect(failed.results.map((log) => [log.recipient, log.result, log.error])).toEqual([
      ["bulk-1@example.com", "failed", "421 try again later"],
    ]);
    // The summary's figures say what the logs say.
    expect(await loadBulk(database.db, shop.merchantId, outcome.bulkId)).toMatchObject({ sent: 2, failed: 1 });
  });

  it("records the SMS provider's refusal, and fails the message when the send_sms job gives up", async () => {
    const shop = await merchant("Sms");
    setSmsProvider({
      deliver: async () => {
        throw new Error("provider: number barred");
      },
    });
    const outcome = await upload(shop, bulkCsv(2), { sendEmail: false, sendSms: true });
    await dispatchRun(database.db, outcome.dispatchLogId);
    await runReadyJobs(database.db);
    // After a first refusal the job retries: the message is queued, with the provider's words.
    const retrying = await database.db
      .selectFrom("outgoing_sms")
      .select(["status", "error"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(retrying).toEqual([
      { status: "queued", error: "provider: number barred" },
      { status: "queued", error: "provider: number barred" },
    ]);
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(0);

    await runJobsThroughRetries(6);
    const given = await database.db
      .selectFrom("outgoing_sms")
      .select(["status", "error"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(given.every((sms) => sms.status === "failed" && sms.error === "provider: number barred")).toBe(true);
    const failed = await listTransactionLogs(database.db, shop.merchantId, outcome.dispatchLogId, {
      result: "failed",
      limit: 10,
      offset: 0,
    });
    expect(failed.results.map((log) => [log.channel, log.error])).toEqual([
      ["sms", "provider: number barred"],
      ["sms", "provider: number barred"],
    ]);
    expect(await loadBulk(database.db, shop.merchantId, outcome.bulkId)).toMatchObject({
      messages: 2,
      sent: 0,
      failed: 2,
    });

    // The provider is back: "Resend failed" sends each once more.
    setSmsProvider({ deliver: async () => {} });
    const resent = await resendFailed(database.db, {
      merchantId: shop.merchantId,
      bulkId: outcome.bulkId,
      actor: shop.user,
    });
    expect(resent).toMatchObject({ ok: true, count: 2 });
  });
});

describe("resending", () => {
  it("offers nothing for a request that expired while it was still waiting to be paid", async () => {
    const shop = await merchant("Expired");
    const expiry = new Date(now().getTime() + 86_400_000).toISOString();
    const outcome = await upload(
      shop,
      bulkCsv(2, {
        header: ["amount", "customer_email", "customer_phone", "expiration_time"],
        row: (index) => ["5.000", `late-${index}@example.com`, "", expiry],
      }),
    );
    await dispatchRun(database.db, outcome.dispatchLogId);
    await refuseMailTo(database.db, shop.merchantId, "late-0@example.com");
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(1);
    // A day and a minute later the request is past its expiry, though nothing moved it from "created".
    advanceClock(86_400_000 + 60_000);
    expect(
      await database.db
        .selectFrom("transactions")
        .select("state")
        .where("merchant_id", "=", shop.merchantId)
        .where("customer_email", "=", "late-0@example.com")
        .executeTakeFirstOrThrow(),
    ).toEqual({ state: "created" });
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(0);
    expect(
      await resendFailed(database.db, { merchantId: shop.merchantId, bulkId: outcome.bulkId, actor: shop.user }),
    ).toMatchObject({ ok: false, code: "bulk.errors.nothing_to_resend" });
  });
});

describe("a run", () => {
  it("goes on past a message that cannot be written: that one is failed with its error, the others are sent", async () => {
    const shop = await merchant("Fault");
    const outcome = await upload(shop, bulkCsv(6));
    await dispatchRun(database.db, outcome.dispatchLogId, {
      beforeMessage: (message) => {
        if (message.recipient === "bulk-2@example.com") throw new Error("template exploded");
      },
    });
    expect(await runOf(database.db, outcome.dispatchLogId)).toEqual({
      status: "finished",
      sent: 5,
      failed: 1,
      total: 6,
    });
    const mails = await mailsByRecipient(database.db, shop.merchantId);
    expect([...mails.keys()].sort()).toEqual([
      "bulk-0@example.com",
      "bulk-1@example.com",
      "bulk-3@example.com",
      "bulk-4@example.com",
      "bulk-5@example.com",
    ]);
    const failed = await listTransactionLogs(database.db, shop.merchantId, outcome.dispatchLogId, {
      result: "failed",
      limit: 10,
      offset: 0,
    });
    expect(failed.results.map((log) => [log.recipient, log.error])).toEqual([
      ["bulk-2@example.com", "bulk.errors.message_failed"],
    ]);
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(1);
  });

  it("cut off half-way through a batch keeps nothing of that batch, and the next worker sends it whole, once each", async () => {
    const shop = await merchant("Cutoff");
    const outcome = await upload(shop, bulkCsv(150));
    // The worker dies after writing 40 mails of its first batch of 100.
    await expect(
      dispatchRun(database.db, outcome.dispatchLogId, {
        afterMessage: (written) => {
          if (written === 40) throw new Error("worker killed");
        },
      }),
    ).rejects.toThrow("worker killed");
    expect(await countOf(database.db, "outgoing_mail", shop.merchantId)).toBe(0);
    expect(await runOf(database.db, outcome.dispatchLogId)).toMatchObject({ status: "running", sent: 0, failed: 0 });
    const queued = await database.db
      .selectFrom("bulk_transaction_logs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("dispatch_log_id", "=", outcome.dispatchLogId)
      .where("result", "=", "queued")
      .executeTakeFirstOrThrow();
    expect(Number(queued.n)).toBe(150);

    await dispatchRun(database.db, outcome.dispatchLogId);
    const mails = await mailsByRecipient(database.db, shop.merchantId);
    expect(mails.size).toBe(150);
    expect([...mails.values()].every((count) => count === 1)).toBe(true);
    expect(await runOf(database.db, outcome.dispatchLogId)).toEqual({
      status: "finished",
      sent: 150,
      failed: 0,
      total: 150,
    });
  });

  it("whose job is given up fails what was left and is finished, and what was left can be resent", async () => {
    const shop = await merchant("Given");
    const outcome = await upload(shop, bulkCsv(5));
    // Its worker stopped during the job's last attempt, and the lease ran out.
    await database.db
      .updateTable("jobs")
      .set({
        status: "running",
        attempts: 10,
        locked_by: "gone:1",
        locked_at: new Date(now().getTime() - 120_000).toISOString(),
      })
      .where("type", "=", DISPATCH_JOB)
      .where("status", "=", "queued")
      .execute();
    await requeueStaleJobs(database.db);
    expect(await runOf(database.db, outcome.dispatchLogId)).toEqual({
      status: "finished",
      sent: 0,
      failed: 5,
      total: 5,
    });
    const failed = await listTransactionLogs(database.db, shop.merchantId, outcome.dispatchLogId, {
      result: "failed",
      limit: 10,
      offset: 0,
    });
    expect(failed.results.every((log) => log.error === "bulk.errors.gave_up")).toBe(true);
    expect(await countResendable(database.db, shop.merchantId, outcome.bulkId)).toBe(5);
  });

  it("is sent a slice per job, so other jobs take their turns, and at the pace asked: each message's job waits for its turn", async () => {
    const shop = await merchant("Paced");
    setSmsProvider({ deliver: async () => {} });
    const outcome = await upload(shop, bulkCsv(120), { sendEmail: false, sendSms: true });
    const run = await database.db
      .selectFrom("jobs")
      .select(["id"])
      .where("type", "=", DISPATCH_JOB)
      .where("status", "=", "queued")
      .where("payload", "=", JSON.stringify({ dispatchLogId: outcome.dispatchLogId }))
      .executeTakeFirstOrThrow();
    await database.db.updateTable("jobs").set({ status: "done" }).where("id", "=", run.id).execute();

    // 50 a second: one job writes one batch of 50 and hands the rest to a job due a second after the run began.
    await dispatchRun(database.db, outcome.dispatchLogId, { perSecond: 50, sliceMs: 2_000 });
    expect(await runOf(database.db, outcome.dispatchLogId)).toMatchObject({ status: "running", sent: 50 });
    const started = await database.db
      .selectFrom("bulk_dispatch_logs")
      .select("started_at")
      .where("id", "=", outcome.dispatchLogId)
      .executeTakeFirstOrThrow();
    const startedAt = new Date(started.started_at!).getTime();
    const next = await database.db
      .selectFrom("jobs")
      .select(["run_at"])
      .where("type", "=", DISPATCH_JOB)
      .where("status", "=", "queued")
      .where("payload", "=", JSON.stringify({ dispatchLogId: outcome.dispatchLogId }))
      .execute();
    expect(next.map((job) => new Date(job.run_at).getTime() - startedAt)).toEqual([1_000]);
    // Message n of the run is handed to the provider n / 50 seconds after the run began.
    const sends = await database.db
      .selectFrom("jobs")
      .select("run_at")
      .where("type", "=", "send_sms")
      .where("status", "=", "queued")
      .orderBy("run_at")
      .execute();
    const mine = sends
      .map((job) => new Date(job.run_at).getTime() - startedAt)
      .filter((offset) => offset >= 0 && offset < 1_000);
    expect(mine).toHaveLength(50);
    expect(mine.slice(0, 3)).toEqual([0, 20, 40]);
    expect(mine[49]).toBe(980);

    // Unpaced, a job that has used its slice hands over to a job due at once, behind those already waiting.
    await dispatchRun(database.db, outcome.dispatchLogId, { sliceMs: 0 });
    expect(await runOf(database.db, outcome.dispatchLogId)).toMatchObject({ status: "running", sent: 120 });
    advanceClock(5_000);
    await runReadyJobs(database.db);
    expect(await runOf(database.db, outcome.dispatchLogId)).toEqual({
      status: "finished",
      sent: 120,
      failed: 0,
      total: 120,
    });
    expect(await countOf(database.db, "outgoing_sms", shop.merchantId)).toBe(120);
    const delivered = await database.db
      .selectFrom("outgoing_sms")
      .select("status")
      .where("merchant_id", "=", shop.merchantId)
      .where("status", "=", "sent")
      .execute();
    expect(delivered).toHaveLength(120);
  });

  it.runIf(process.env.TEST_DB_ENGINE === "postgres")(
    "is not marked finished while another worker still holds its last batch",
    async () => {
      const shop = await merchant("Holding");
      const outcome = await upload(shop, bulkCsv(30));
      const db = database.db;
      expect(engineOf(db)).toBe("postgres");
      // Another worker has claimed (locked) ten of the run's messages and not committed yet.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const other = db.transaction().execute(async (trx) => {
        await trx
          .selectFrom("bulk_transaction_logs")
          .select("id")
          .where("dispatch_log_id", "=", outcome.dispatchLogId)
          .orderBy("id")
          .limit(10)
          .forUpdate()
          .execute();
        locked();
        await held;
      });
      await isLocked;
      await dispatchRun(db, outcome.dispatchLogId);
      expect(await runOf(db, outcome.dispatchLogId)).toMatchObject({ status: "running", sent: 20 });
      release();
      await other;
      await dispatchRun(db, outcome.dispatchLogId);
      expect(await runOf(db, outcome.dispatchLogId)).toEqual({ status: "finished", sent: 30, failed: 0, total: 30 });
    },
  );
});
