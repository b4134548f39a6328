import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { endUserSessions, openSession, resumeSession, SESSION_ABSOLUTE_MS } from "./sessions.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Sess");
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

const open = () =>
  openSession(database.db, {
    userId: shop.admin.id,
    merchantId: shop.merchantId,
    kind: "web",
    ip: "10.0.0.1",
    userAgent: "test",
  });

describe("sessions", () => {
  it("keeps only a hash of the id in the database", async () => {
    const { token } = await open();
    const rows = await database.db.selectFrom("sessions").select("id").execute();
    expect(rows.some((row) => row.id === token)).toBe(false);
    expect(await resumeSession(database.db, token)).toBeDefined();
  });

  it("stays alive while used, ends after 20 idle minutes", async () => {
    const { token } = await open();
    for (let step = 0; step < 5; step++) {
      advanceClock(15 * 60_000);
      expect(await resumeSession(database.db, token), `step ${step}`).toBeDefined();
    }
    advanceClock(20 * 60_000 + 1000);
    expect(await resumeSession(database.db, token)).toBeUndefined();
  });

  it("ends at the absolute cap even when used all along", async () => {
    const { token } = await open();
    const steps = Math.ceil(SESSION_ABSOLUTE_MS / (10 * 60_000));
    let alive = 0;
    for (let step = 0; step < steps + 1; step++) {
      advanceClock(10 * 60_000);
      if (await resumeSession(database.db, token)) alive++;
      else break;
    }
    expect(alive).toBe(steps - 1);
  });

  it("ends all of a user's sessions at once", async () => {
    const first = await open();
    const second = await open();
    await endUserSessions(database.db, shop.admin.id);
    expect(await resumeSession(database.db, first.token)).toBeUndefined();
    expect(await resumeSession(database.db, second.token)).toBeUndefined();
  });
});
