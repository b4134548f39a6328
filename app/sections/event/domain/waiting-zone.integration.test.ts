import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestEvent } from "../../../../tests/support/event-fixtures-public";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { endPass, standInQueue, validPassEntry, type QueueEvent } from "./waiting-zone.server";

let database: TestDatabase;
let merchantId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  merchantId = (await seedMerchant(database.db, "Queue")).merchantId;
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

async function queueEvent(capacity: number): Promise<QueueEvent> {
  const { id } = await createTestEvent(database.db, { merchantId, isFree: true, queueCapacity: capacity });
  return { id, merchant_id: merchantId, queue_capacity: capacity };
}

describe("the waiting zone", () => {
  it("gives out no more passes than its capacity, however many arrive at once", async () => {
    const event = await queueEvent(3);
    const standings = await Promise.all(Array.from({ length: 20 }, () => standInQueue(database.db, event, null)));
    expect(standings.filter((one) => one.kind === "admitted")).toHaveLength(3);
    const positions = standings.flatMap((one) => (one.kind === "waiting" ? [one.position] : [])).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 17 }, (_, index) => index + 1));
  });

  it("lets the next one in when a pass is used or runs out, and a pass only opens its own event", async () => {
    const event = await queueEvent(1);
    const other = await queueEvent(1);
    const first = await standInQueue(database.db, event, null);
    const second = await standInQueue(database.db, event, null);
    const third = await standInQueue(database.db, event, null);
    if (first.kind !== "admitted" || second.kind !== "waiting" || third.kind !== "waiting") throw new Error("unexpected standings");
    expect(await validPassEntry(database.db, other, first.pass)).toBeNull();
    expect(await validPassEntry(database.db, event, `${first.pass.slice(0, -2)}xx`)).toBeNull();
    const entry = await validPassEntry(database.db, event, first.pass);
    expect(entry).not.toBeNull();

    await endPass(database.db, entry!);
    expect(await validPassEntry(database.db, event, first.pass)).toBeNull();
    // The third asks first, but the second came before it and is still waiting.
    expect((await standInQueue(database.db, event, third.token)).kind).toBe("waiting");
    const secondIn = await standInQueue(database.db, event, second.token);
    expect(secondIn.kind).toBe("admitted");

    // Ten minutes later the second's pass has run out unused: the third goes in.
    advanceClock(10 * 60_000 + 1_000);
    if (secondIn.kind === "admitted") expect(await validPassEntry(database.db, event, secondIn.pass)).toBeNull();
    expect((await standInQueue(database.db, event, third.token)).kind).toBe("admitted");
  });
});
