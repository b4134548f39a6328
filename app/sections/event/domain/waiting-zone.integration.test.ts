import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestEvent } from "../../../../tests/support/event-fixtures-public";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { BookingSchema } from "./booking-schema";
import { createBooking } from "./bookings.server";
import { standInQueue, takePass, validPassEntry, type QueueEvent } from "./waiting-zone.server";

let database: TestDatabase;
let merchantId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  merchantId = (await seedMerchant(database.db, "Queue")).merchantId;
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

async function queueEvent(capacity: number): Promise<QueueEvent & { slug: string; ticketId: number }> {
  const { id, slug, ticketId } = await createTestEvent(database.db, {
    merchantId,
    isFree: true,
    queueCapacity: capacity,
    quantity: 50,
  });
  return { id, merchant_id: merchantId, queue_capacity: capacity, slug, ticketId };
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
    if (first.kind !== "admitted" || second.kind !== "waiting" || third.kind !== "waiting")
      throw new Error("unexpected standings");
    expect(await validPassEntry(database.db, other, first.pass)).toBeNull();
    expect(await validPassEntry(database.db, event, `${first.pass.slice(0, -2)}xx`)).toBeNull();
    const entry = await validPassEntry(database.db, event, first.pass);
    expect(entry).not.toBeNull();

    expect(await takePass(database.db, entry!)).toBe(true);
    expect(await takePass(database.db, entry!)).toBe(false);
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

  it("lets one pass make one booking, however many are sent with it at once", async () => {
    const event = await queueEvent(1);
    const standing = await standInQueue(database.db, event, null);
    if (standing.kind !== "admitted") throw new Error("not admitted");
    const entryId = (await validPassEntry(database.db, event, standing.pass))!;
    // Postgres takes them at the same moment on the pool's connections; SQLite's writer one after another.
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        createBooking(database.db, {
          request: BookingSchema.parse({
            event: event.slug,
            ticket: event.ticketId,
            event_date: "2030-12-20",
            quantity: 1,
            email: `guest${index}@example.com`,
          }),
          lang: "en",
          baseUrl: "http://localhost",
          passEntryId: entryId,
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok).map((outcome) => !outcome.ok && outcome.errors)).toEqual(
      Array(7).fill({ non_field_errors: ["events_public.errors.needs_pass"] }),
    );
    // The refused bookings rolled back: one booking, one place taken.
    const bookings = await database.db.selectFrom("bookings").select("id").where("event_id", "=", event.id).execute();
    expect(bookings).toHaveLength(1);
    const { taken } = await database.db
      .selectFrom("event_ticket_dates")
      .select("taken")
      .where("event_id", "=", event.id)
      .executeTakeFirstOrThrow();
    expect(Number(taken)).toBe(1);
    expect(await validPassEntry(database.db, event, standing.pass)).toBeNull();
  });

  it("keeps the pass of a booking that is refused", async () => {
    const event = await queueEvent(1);
    const standing = await standInQueue(database.db, event, null);
    if (standing.kind !== "admitted") throw new Error("not admitted");
    const entryId = (await validPassEntry(database.db, event, standing.pass))!;
    const tooMany = await createBooking(database.db, {
      request: BookingSchema.parse({
        event: event.slug,
        ticket: event.ticketId,
        event_date: "2030-12-20",
        quantity: 51,
        email: "guest@example.com",
      }),
      lang: "en",
      baseUrl: "http://localhost",
      passEntryId: entryId,
    });
    expect(tooMany.ok).toBe(false);
    expect(await validPassEntry(database.db, event, standing.pass)).toBe(entryId);
  });
});
