import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { writeTransaction, type DB } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { wirePlatform } from "~/boot/wiring.server";
import { advanceClock, nowIso, resetClock } from "~/lib/clock.server";
import { BookingSchema } from "./booking-schema";
import { cancelBooking, changeBookingPlaces, createBooking, endHold, releaseAllExpiredHolds } from "./bookings.server";
import { ticketAvailability } from "./availability.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" };

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Events");
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

let slugs = 0;

/** An event of the shop with one ticket on the given dates: `places` per date, price in fils (0: free). */
async function makeEvent(
  db: DB,
  input: { places: number; price?: number; dates?: string[]; free?: boolean; holdMinutes?: number },
) {
  const at = nowIso();
  const slug = `event-${++slugs}-${Math.random().toString(36).slice(2, 8)}`;
  const event = await db
    .insertInto("events")
    .values({
      merchant_id: shop.merchantId,
      slug,
      title_en: "Winter Concert",
      title_ar: "حفل الشتاء",
      currency_code: "KWD",
      is_free: input.free ? 1 : 0,
      status: "published",
      gateway_codes: "knet-sandbox,mpgs-sandbox",
      hold_minutes: input.holdMinutes ?? 15,
      max_per_booking: 10,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const ticket = await db
    .insertInto("event_tickets")
    .values({
      merchant_id: shop.merchantId,
      event_id: event.id,
      name_en: "Standard",
      name_ar: "عادي",
      price: input.free ? 0 : (input.price ?? 5000),
      start_time: "18:00",
      end_time: "22:00",
      quantity: input.places,
      position: 1,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const dates = input.dates ?? ["2099-12-20"];
  for (const date of dates) {
    await db
      .insertInto("event_ticket_dates")
      .values({
        merchant_id: shop.merchantId,
        event_id: event.id,
        ticket_id: ticket.id,
        event_date: date,
        quantity: input.places,
      })
      .execute();
  }
  return { eventId: event.id, slug, ticketId: ticket.id, dates };
}

function book(
  event: { slug: string; ticketId: number; dates: string[] },
  quantity: number,
  extra: Record<string, unknown> = {},
) {
  return createBooking(database.db, {
    request: BookingSchema.parse({
      event: event.slug,
      ticket: event.ticketId,
      event_date: event.dates[0],
      quantity,
      email: "guest@example.com",
      customer_first_name: "Sara",
      ...extra,
    }),
    lang: "en",
    baseUrl: "http://localhost",
  });
}

async function left(eventId: number, date: string) {
  const [ticket] = await ticketAvailability(database.db, eventId);
  return ticket.remaining_qty_per_date[date]?.remaining_quantity;
}

async function payTransaction(id: string) {
  return writeTransaction(database.db, (trx) =>
    transitionTransaction(
      trx,
      id,
      "paid",
      { kind: "payment", attemptId: `attempt-${id}` },
      { changes: { paid_amount: 0 } },
    ),
  );
}

async function itemsOf(bookingId: number) {
  return database.db
    .selectFrom("booking_items")
    .select(["status", "transaction_id", "quantity"])
    .where("booking_id", "=", bookingId)
    .execute();
}

describe("booking places", () => {
  it("sells exactly the last 10 places to 50 customers booking at once, and tells the others what is left", async () => {
    const event = await makeEvent(database.db, { places: 10, free: true });
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => book(event, 1)));
    const sold = outcomes.filter((outcome) => outcome.ok);
    expect(sold).toHaveLength(10);
    for (const refused of outcomes.filter((outcome) => !outcome.ok)) {
      expect(refused).toMatchObject({ ok: false, errors: { quantity: ["event.errors.sold_out"] } });
    }
    expect(await left(event.eventId, event.dates[0])).toBe(0);
    const members = await database.db
      .selectFrom("booking_members")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("event_id", "=", event.eventId)
      .executeTakeFirstOrThrow();
    expect(Number(members.n)).toBe(10);
  });

  it("holds a paid booking's places for its payment, confirms them only when the payment completes, and mails the tickets then", async () => {
    const event = await makeEvent(database.db, { places: 5 });
    const outcome = await book(event, 2);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
    expect(outcome.booking).toMatchObject({ state: "pending", checkout_url: expect.stringContaining("/en/pay/") });
    expect(await left(event.eventId, event.dates[0])).toBe(3);
    const [item] = await itemsOf(outcome.booking.id);
    expect(item.status).toBe("pending");
    const mailsBefore = await database.db
      .selectFrom("outgoing_mail")
      .select("id")
      .where("to_address", "=", "guest@example.com")
      .execute();

    // An attempt that fails leaves the booking pending; only a completed payment confirms it.
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, item.transaction_id!, "attempted", { kind: "attempt_failed", attemptId: "a-failed" }),
    );
    expect((await itemsOf(outcome.booking.id))[0].status).toBe("pending");

    await payTransaction(item.transaction_id!);
    expect((await itemsOf(outcome.booking.id))[0].status).toBe("paid");
    const mails = await database.db
      .selectFrom("outgoing_mail")
      .select(["subject", "attachments"])
      .where("to_address", "=", "guest@example.com")
      .orderBy("id")
      .execute();
    expect(mails.length).toBe(mailsBefore.length + 1);
    expect(mails.at(-1)!.attachments).toContain("event_tickets");
    expect(await left(event.eventId, event.dates[0])).toBe(3);
  });

  it("puts an expired hold's places back on sale, and a late payment takes them again only if they are still free", async () => {
    const event = await makeEvent(database.db, { places: 2, holdMinutes: 10 });
    const first = await book(event, 2);
    if (!first.ok) throw new Error("first booking refused");
    expect(await left(event.eventId, event.dates[0])).toBe(0);
    expect(await book(event, 1)).toMatchObject({ ok: false, errors: { quantity: ["event.errors.sold_out"] } });

    advanceClock(11 * 60_000);
    expect(await releaseAllExpiredHolds(database.db)).toBeGreaterThanOrEqual(1);
    expect(await left(event.eventId, event.dates[0])).toBe(2);
    const [expiredItem] = await itemsOf(first.booking.id);
    expect(expiredItem.status).toBe("cancel");
    const transaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", expiredItem.transaction_id!)
      .executeTakeFirstOrThrow();
    expect(transaction.state).toBe("expired");

    // Someone else takes the places; the first customer's payment then completes (started before the hold ran out).
    const second = await book(event, 2, { email: "other@example.com" });
    expect(second.ok).toBe(true);
    await payTransaction(expiredItem.transaction_id!);
    const [late] = await database.db
      .selectFrom("booking_items")
      .select(["status", "note"])
      .where("booking_id", "=", first.booking.id)
      .execute();
    expect(late).toEqual({ status: "cancel", note: "paid_without_places" });
    expect(await left(event.eventId, event.dates[0])).toBe(0);
    const flagged = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "booking")
      .where("object_id", "=", String(first.booking.id))
      .execute();
    expect(flagged.map((row) => row.action)).toContain("booking_paid_without_places");
  });

  it("releases a hold at once when a booking finds the date full of expired holds", async () => {
    const event = await makeEvent(database.db, { places: 1, holdMinutes: 5 });
    expect((await book(event, 1)).ok).toBe(true);
    advanceClock(6 * 60_000);
    expect(await book(event, 1)).toMatchObject({ ok: true, booking: { state: "pending" } });
  });

  it("returns a canceled booking's places, and cancels its unpaid payment", async () => {
    const event = await makeEvent(database.db, { places: 3 });
    const outcome = await book(event, 3);
    if (!outcome.ok) throw new Error("refused");
    expect(await left(event.eventId, event.dates[0])).toBe(0);
    const canceled = await cancelBooking(database.db, {
      merchantId: shop.merchantId,
      actor: { ...shop.admin, superuser: true, permissions: [] } as never,
      id: outcome.booking.id,
      addresses,
    });
    expect(canceled).toMatchObject({ ok: true, refunds: [] });
    expect(await left(event.eventId, event.dates[0])).toBe(3);
    const [item] = await itemsOf(outcome.booking.id);
    expect(item.status).toBe("cancel");
    const transaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", item.transaction_id!)
      .executeTakeFirstOrThrow();
    expect(transaction.state).toBe("canceled");
    // A payment started before the cancel that completes afterwards does not bring the booking back: staff are asked to refund it.
    await payTransaction(item.transaction_id!);
    expect((await itemsOf(outcome.booking.id))[0].status).toBe("cancel");
    expect(await left(event.eventId, event.dates[0])).toBe(3);
    const flagged = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "booking")
      .where("object_id", "=", String(outcome.booking.id))
      .execute();
    expect(flagged.map((row) => row.action)).toContain("booking_paid_after_cancel");
    expect(
      await cancelBooking(database.db, {
        merchantId: shop.merchantId + 1000,
        actor: { ...shop.admin, superuser: true, permissions: [] } as never,
        id: outcome.booking.id,
        addresses,
      }),
    ).toMatchObject({ ok: false });
  });

  it("refuses to move a booking to a sold-out date or to add more places than are left, changing nothing", async () => {
    const event = await makeEvent(database.db, { places: 2, free: true, dates: ["2099-11-01", "2099-11-02"] });
    const mine = await book(event, 1);
    if (!mine.ok) throw new Error("refused");
    // Fill the second date.
    const full = await createBooking(database.db, {
      request: BookingSchema.parse({
        event: event.slug,
        ticket: event.ticketId,
        event_date: "2099-11-02",
        quantity: 2,
        email: "full@example.com",
      }),
      lang: "en",
      baseUrl: "http://localhost",
    });
    expect(full.ok).toBe(true);
    const actor = shop.admin;
    const moved = await changeBookingPlaces(database.db, {
      merchantId: shop.merchantId,
      actor,
      id: mine.booking.id,
      event_date: "2099-11-02",
      quantity: 0,
      lang: "en",
      baseUrl: "http://localhost",
    });
    expect(moved).toMatchObject({ ok: false, errors: { quantity: ["event.errors.sold_out"] } });
    const more = await changeBookingPlaces(database.db, {
      merchantId: shop.merchantId,
      actor,
      id: mine.booking.id,
      event_date: "2099-11-01",
      quantity: 2,
      lang: "en",
      baseUrl: "http://localhost",
    });
    expect(more).toMatchObject({ ok: false, errors: { quantity: ["event.errors.only_left"] }, params: { left: 1 } });
    expect(await left(event.eventId, "2099-11-01")).toBe(1);
    expect(await left(event.eventId, "2099-11-02")).toBe(0);
    const booking = await database.db
      .selectFrom("bookings")
      .select("event_date")
      .where("id", "=", mine.booking.id)
      .executeTakeFirstOrThrow();
    expect(booking.event_date).toBe("2099-11-01");

    const fine = await changeBookingPlaces(database.db, {
      merchantId: shop.merchantId,
      actor,
      id: mine.booking.id,
      event_date: "2099-11-01",
      quantity: 1,
      lang: "en",
      baseUrl: "http://localhost",
    });
    expect(fine).toMatchObject({ ok: true, checkout_url: null });
    expect(await left(event.eventId, "2099-11-01")).toBe(0);
  });

  it("refuses a past date, an unknown ticket and a quantity beyond the event's limit", async () => {
    const event = await makeEvent(database.db, { places: 50, dates: ["2001-01-01", "2099-01-01"] });
    expect(await book(event, 1)).toMatchObject({ ok: false, errors: { event_date: ["event.errors.date_passed"] } });
    expect(await book({ ...event, ticketId: event.ticketId + 999 }, 1)).toMatchObject({
      ok: false,
      errors: { ticket: ["event.errors.ticket"] },
    });
    expect(await book({ ...event, dates: ["2099-01-01"] }, 11)).toMatchObject({
      ok: false,
      errors: { quantity: ["event.errors.quantity_range"] },
      params: { max: 10 },
    });
    expect(await book({ ...event, dates: ["2099-01-01"] }, 1, { gateway_code: "cod" })).toMatchObject({
      ok: false,
      errors: { gateway_code: ["event.errors.gateway"] },
    });
  });

  it("never cancels a hold its payment completed meanwhile: the sweep that read it as pending leaves it paid", async () => {
    const event = await makeEvent(database.db, { places: 2, holdMinutes: 5 });
    const outcome = await book(event, 2);
    if (!outcome.ok) throw new Error("refused");
    const [item] = await database.db
      .selectFrom("booking_items")
      .select(["id", "transaction_id"])
      .where("booking_id", "=", outcome.booking.id)
      .execute();
    advanceClock(6 * 60_000);
    // The sweep read the item while it was pending; the customer's payment completes before the sweep writes.
    await payTransaction(item.transaction_id!);
    await writeTransaction(database.db, (trx) => endHold(trx, item));
    expect((await itemsOf(outcome.booking.id))[0].status).toBe("paid");
    expect(await left(event.eventId, event.dates[0])).toBe(0);
  });

  it("refuses a change made from an old copy of the booking (a form sent twice), moving nothing twice", async () => {
    const event = await makeEvent(database.db, { places: 5, free: true, dates: ["2099-10-01", "2099-10-02"] });
    const mine = await book(event, 2);
    if (!mine.ok) throw new Error("refused");
    const { updated_at: version } = await database.db
      .selectFrom("bookings")
      .select("updated_at")
      .where("id", "=", mine.booking.id)
      .executeTakeFirstOrThrow();
    advanceClock(1000);
    const change = {
      merchantId: shop.merchantId,
      actor: shop.admin,
      id: mine.booking.id,
      event_date: "2099-10-02",
      quantity: 1,
      lang: "en" as const,
      baseUrl: "http://localhost",
      version,
    };
    const [first, second] = await Promise.all([
      changeBookingPlaces(database.db, change),
      changeBookingPlaces(database.db, change),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    expect([first, second].find((outcome) => !outcome.ok)).toMatchObject({
      errors: { non_field_errors: ["event.errors.changed_meanwhile"] },
    });
    expect(await left(event.eventId, "2099-10-01")).toBe(5);
    expect(await left(event.eventId, "2099-10-02")).toBe(2);
  });
});
