import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { advanceClock, resetClock } from "./clock.server";
import { enqueueJob, registerJobHandler, runReadyJobs } from "./jobs.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

describe("jobs", () => {
  it("runs a queued job once", async () => {
    const seen: number[] = [];
    registerJobHandler("test_record", async (_db, payload: { n: number }) => {
      seen.push(payload.n);
    });
    await enqueueJob(database.db, "test_record", { n: 1 });
    await enqueueJob(database.db, "test_record", { n: 2 });
    expect(await runReadyJobs(database.db)).toBe(2);
    expect(await runReadyJobs(database.db)).toBe(0);
    expect(seen.sort()).toEqual([1, 2]);
  });

  it("retries a failing job later and gives up after its attempts", async () => {
    let calls = 0;
    registerJobHandler("test_flaky", async () => {
      calls++;
      throw new Error("remote down");
    });
    await enqueueJob(database.db, "test_flaky", {}, { maxAttempts: 2 });
    await runReadyJobs(database.db);
    expect(calls).toBe(1);
    await runReadyJobs(database.db);
    expect(calls).toBe(1);
    advanceClock(60_000);
    await runReadyJobs(database.db);
    expect(calls).toBe(2);
    const job = await database.db
      .selectFrom("jobs")
      .select(["status", "attempts", "last_error"])
      .where("type", "=", "test_flaky")
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: "failed", attempts: 2, last_error: "remote down" });
  });
});
