import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock } from "~/lib/clock.server";
import { compareBooks, listDifferences } from "~/domain/payments/reconciliation.server";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The demo a merchant opens on the first start is not empty: the worker makes its first payments
 * on the sandboxes, as customers would, and the platform's books agree with the gateways' about
 * every one of them.
 */
let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess({
    ...database.env,
    SEED_DEMO: "1",
    SANDBOX: "1",
    DEMO_ACTIVITY: "1",
    WORKER: "on",
  });
}, 60_000);

afterAll(async () => {
  server?.child.kill("SIGTERM");
  await database?.destroy();
});

async function activityDone() {
  for (let waited = 0; waited < 90_000; waited += 250) {
    const job = await database.db
      .selectFrom("jobs")
      .select(["status", "last_error"])
      .where("type", "=", "demo_activity")
      .executeTakeFirst();
    if (job?.status === "done") return job;
    if (job?.status === "failed") throw new Error(`demo activity failed: ${job.last_error}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("demo activity did not finish");
}

describe("the demo merchant's first payments", () => {
  it("are made on the sandboxes: paid, refunded in part and in full, declined, canceled and waiting", async () => {
    await activityDone();
    // The other sections' demo jobs make payments of their own (a collector's, a bulk's, a paired
    // code's payment request): these are the payment requests the merchant asked for itself.
    const rows = (
      await database.db
        .selectFrom("transactions")
        .select(["state", "paid_amount", "refunded_amount", "customer_first_name", "extra"])
        .where("plugin", "=", "payment_request")
        .execute()
    ).filter((row) => !(JSON.parse(row.extra) as { source?: string }).source);
    const count = (state: string) => rows.filter((row) => row.state === state).length;
    expect(rows).toHaveLength(16);
    expect(count("paid")).toBe(10);
    expect(count("refunded")).toBe(1);
    expect(count("attempted")).toBe(3);
    expect(count("created")).toBe(2);
    expect(rows.filter((row) => row.state === "paid" && row.refunded_amount > 0)).toHaveLength(2);
    expect(rows.some((row) => row.customer_first_name === "محمد")).toBe(true);
    const ledger = await database.db
      .selectFrom("ledger_entries")
      .innerJoin("transactions", "transactions.id", "ledger_entries.transaction_id")
      .select(["ledger_entries.kind"])
      .where("transactions.plugin", "=", "payment_request")
      .execute();
    expect(ledger.filter((entry) => entry.kind === "payment")).toHaveLength(11);
    // The card acquirer names the card it charged, masked; the platform keeps that and nothing more.
    const cards = await database.db
      .selectFrom("payment_attempts")
      .select("card_masked")
      .where("gateway_code", "=", "mpgs-sandbox")
      .where("state", "=", "success")
      .execute();
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((attempt) => attempt.card_masked === "512345******0008")).toBe(true);
  }, 100_000);

  it("leave no difference between the platform's books and the gateways'", async () => {
    advanceClock(65 * 60_000);
    const merchant = await database.db.selectFrom("merchants").select("id").executeTakeFirstOrThrow();
    const result = await compareBooks(
      database.db,
      { publicBaseUrl: server.url, internalBaseUrl: server.url },
      { merchantId: merchant.id },
    );
    expect(result.failedGateways).toEqual([]);
    expect((await listDifferences(database.db, merchant.id, { resolved: false, limit: 50, offset: 0 })).rows).toEqual(
      [],
    );
  });
});
