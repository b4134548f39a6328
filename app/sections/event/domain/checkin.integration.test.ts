import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type DB } from "~/db/database.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { insertCheckinBooking, insertCheckinEvent } from "../../../../tests/support/event-fixtures-checkin";
import { bookingStatistics, checkinList, isCheckinListGenuine, syncOfflineScans, validateScan } from "./checkin.server";
import { scanRefusalMessage } from "../presentation/checkin.server";
import { qrContentOf } from "./tickets.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
const extraPools: DB[] = [];

beforeAll(async () => {
  // The door opens on 20 Dec 2026, 21:00 in Kuwait: the events' tickets are for that day unless a test says otherwise.
  advanceClock(Date.parse("2026-12-20T18:00:00.000Z") - Date.now());
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Door");
  other = await seedMerchant(database.db, "Elsewhere");
});
afterAll(async () => {
  resetClock();
  await Promise.all(extraPools.map((db) => db.destroy()));
  await database?.destroy();
});

const scan = (eventId: number, code: string, db = database.db, options: { anyDate?: boolean } = {}) =>
  validateScan(db, { merchantId: shop.merchantId, eventId, code, actor: shop.admin, ...options });

/** Other connections to the same database, as other app instances would have. */
function otherConnections(count: number): DB[] {
  const pools = Array.from({ length: count }, () =>
    createDatabase({ databaseUrl: database.env.DATABASE_URL, sqlitePath: database.env.SQLITE_PATH, poolSize: 2 }),
  );
  extraPools.push(...pools);
  return pools;
}

describe("checking a place in at the door", () => {
  it("admits its QR code once, then says it was already used, when and by whom", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, {
      firstName: "Fatma",
      lastName: "Al-Ali",
    });
    const first = await scan(event.id, await qrContentOf(database.db, event.id, numbers[0]));
    expect(first).toMatchObject({
      ok: true,
      place: {
        qr_number: numbers[0],
        customer_first_name: "Fatma",
        customer_last_name: "Al-Ali",
        event_date: "2026-12-20",
        start_time: "18:00",
        end_time: "22:00",
        ticket_en: "Standing",
      },
    });
    const again = await scan(event.id, numbers[0]);
    expect(again).toMatchObject({ ok: false, code: "already_used", scannedBy: shop.admin.username });
    expect(again.ok === false && "scannedAt" in again && again.scannedAt).toBe(first.ok && first.scannedAt);
    const scans = await database.db
      .selectFrom("event_scans")
      .select(["result"])
      .where("event_id", "=", event.id)
      .orderBy("id")
      .execute();
    expect(scans.map((row) => row.result)).toEqual(["admitted", "already_used"]);
  });

  it("admits a number typed by staff, forgiving spaces, dashes and case", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    const typed = `${numbers[0].slice(0, 5).toLowerCase()} - ${numbers[0].slice(5)}`;
    expect(await scan(event.id, typed)).toMatchObject({ ok: true, place: { qr_number: numbers[0] } });
  });

  it("admits one place exactly once when ten devices scan it at the same moment", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    const code = await qrContentOf(database.db, event.id, numbers[0]);
    const pools = otherConnections(4);
    const devices = Array.from({ length: 10 }, (_, index) => (index % 5 === 0 ? database.db : pools[(index % 5) - 1]));
    const outcomes = await Promise.all(devices.map((db) => scan(event.id, code, db)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.code === "already_used")).toHaveLength(9);
    expect(await bookingStatistics(database.db, shop.merchantId, { eventId: event.id })).toEqual({
      booked: 1,
      attended: 1,
      not_attended: 0,
    });
  });

  it("refuses a forged QR code, a mistyped number, another event's ticket and an unpaid place, each with its reason", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const otherEvent = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    const { numbers: elsewhere } = await insertCheckinBooking(database.db, shop.merchantId, otherEvent);
    const { numbers: pending } = await insertCheckinBooking(database.db, shop.merchantId, event, { status: "pending" });
    const { numbers: canceled } = await insertCheckinBooking(database.db, shop.merchantId, event, { status: "cancel" });
    const genuine = await qrContentOf(database.db, event.id, numbers[0]);
    const forged = `${genuine.split(".").slice(0, 3).join(".")}.AAAAAAAAAAAAAAAA`;
    expect(await scan(event.id, forged)).toMatchObject({ ok: false, code: "unknown" });
    expect(await scan(event.id, `${numbers[0].slice(0, -1)}${numbers[0].endsWith("2") ? "3" : "2"}`)).toMatchObject({
      ok: false,
      code: "unknown",
    });
    expect(await scan(event.id, await qrContentOf(database.db, otherEvent.id, elsewhere[0]))).toMatchObject({
      ok: false,
      code: "other_event",
    });
    expect(await scan(event.id, elsewhere[0])).toMatchObject({ ok: false, code: "other_event" });
    expect(await scan(event.id, pending[0])).toMatchObject({ ok: false, code: "not_paid" });
    expect(await scan(event.id, canceled[0])).toMatchObject({ ok: false, code: "not_paid" });
    // None of them let anyone in; the genuine code still admits.
    expect(await bookingStatistics(database.db, shop.merchantId, { eventId: event.id })).toEqual({
      booked: 1,
      attended: 0,
      not_attended: 1,
    });
    expect(await scan(event.id, genuine)).toMatchObject({ ok: true });
  });

  it("refuses a ticket of another date with its date, on the door's day in Kuwait", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId, { date: "2026-12-14" });
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    expect(await scan(event.id, await qrContentOf(database.db, event.id, numbers[0]))).toMatchObject({
      ok: false,
      code: "other_date",
      place: { qr_number: numbers[0], event_date: "2026-12-14" },
    });
    const refused = await scan(event.id, numbers[0]);
    expect(refused).toMatchObject({ ok: false, code: "other_date" });
    if (refused.ok) throw new Error("admitted");
    expect(scanRefusalMessage(refused, "en")).toBe("This ticket is for Mon 14 Dec.");
    expect(scanRefusalMessage(refused, "ar")).toBe("هذه التذكرة ليوم الاثنين 14 ديسمبر.");
    expect(await bookingStatistics(database.db, shop.merchantId, { eventId: event.id })).toEqual({
      booked: 1,
      attended: 0,
      not_attended: 1,
    });
    const scans = await database.db
      .selectFrom("event_scans")
      .select("result")
      .where("event_id", "=", event.id)
      .execute();
    expect(scans.map((row) => row.result)).toEqual(["other_date", "other_date"]);
    // Offline scans are judged on the day the device made them: the queue's replay refuses tomorrow's ticket too.
    const tomorrow = await insertCheckinEvent(database.db, shop.merchantId, { date: "2026-12-21" });
    const { numbers: next } = await insertCheckinBooking(database.db, shop.merchantId, tomorrow);
    const offline = (scannedAt: string) =>
      syncOfflineScans(database.db, {
        merchantId: shop.merchantId,
        eventId: tomorrow.id,
        actor: shop.staff,
        scans: [{ code: next[0], scanned_at: scannedAt }],
      });
    expect(await offline("2026-12-20T17:59:00.000Z")).toMatchObject({
      ok: true,
      results: [{ status: "refused", reason: "other_date" }],
    });
  });

  it("lets staff who may admit a ticket of another date anyway, and audits it", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId, { date: "2026-12-14", title: "Last week" });
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    const admitted = await scan(event.id, numbers[0], database.db, { anyDate: true });
    expect(admitted).toMatchObject({ ok: true, place: { qr_number: numbers[0], event_date: "2026-12-14" } });
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_name", "params", "object_type"])
      .where("merchant_id", "=", shop.merchantId)
      .where("action", "=", "checkin_other_date")
      .execute();
    expect(audit).toEqual([
      {
        action: "checkin_other_date",
        actor_name: shop.admin.username,
        object_type: "booking_member",
        params: JSON.stringify({ number: numbers[0], date: "2026-12-14", event: "Last week" }),
      },
    ]);
    // A ticket of today let in with the same choice is no exception: nothing to audit.
    const today = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers: todays } = await insertCheckinBooking(database.db, shop.merchantId, today);
    expect(await scan(today.id, todays[0], database.db, { anyDate: true })).toMatchObject({ ok: true });
    expect(
      await database.db
        .selectFrom("audit_log")
        .select("id")
        .where("merchant_id", "=", shop.merchantId)
        .where("action", "=", "checkin_other_date")
        .execute(),
    ).toHaveLength(1);
  });

  it("never reaches another merchant's events or places", async () => {
    const theirs = await insertCheckinEvent(database.db, other.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, other.merchantId, theirs);
    const mine = await insertCheckinEvent(database.db, shop.merchantId);
    expect(await scan(theirs.id, numbers[0])).toEqual({ ok: false, code: "no_event" });
    expect(await scan(mine.id, numbers[0])).toMatchObject({ ok: false, code: "unknown" });
    expect(await checkinList(database.db, shop.merchantId, theirs.id)).toBeUndefined();
  });
});

describe("checking in offline", () => {
  it("gives a signed list of the paid places and tells an altered list from a genuine one", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, { quantity: 2 });
    await insertCheckinBooking(database.db, shop.merchantId, event, { status: "pending" });
    await scan(event.id, numbers[0]);
    const list = (await checkinList(database.db, shop.merchantId, event.id))!;
    expect(list.places.map((place) => [place.number, place.scanned])).toEqual([
      [numbers[0], true],
      [numbers[1], false],
    ]);
    expect(await isCheckinListGenuine(database.db, list)).toBe(true);
    expect(
      await isCheckinListGenuine(database.db, {
        ...list,
        places: list.places.map((place) => ({ ...place, scanned: false })),
      }),
    ).toBe(false);
  });

  it("applies queued scans in order and reports a place admitted twice with both times", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, { quantity: 3 });
    // Another device, online, admitted the first place before this one synced.
    const online = await scan(event.id, numbers[0]);
    const scans = [
      { code: numbers[0], scanned_at: "2026-12-20T17:05:00.000Z" },
      { code: await qrContentOf(database.db, event.id, numbers[1]), scanned_at: "2026-12-20T17:06:00.000Z" },
      { code: numbers[2], scanned_at: "2026-12-20T17:07:00.000Z" },
      { code: numbers[2], scanned_at: "2026-12-20T17:09:00.000Z" },
      { code: "NOTATICKET", scanned_at: "2026-12-20T17:10:00.000Z" },
    ];
    const synced = await syncOfflineScans(database.db, {
      merchantId: shop.merchantId,
      eventId: event.id,
      actor: shop.staff,
      scans,
    });
    if (!synced.ok) throw new Error("no event");
    expect(synced.results.map((result) => result.status)).toEqual([
      "conflict",
      "admitted",
      "admitted",
      "conflict",
      "refused",
    ]);
    expect(synced.results[0]).toMatchObject({
      first_scanned_at: online.ok && online.scannedAt,
      scanned_at: "2026-12-20T17:05:00.000Z",
      first_scanned_by: shop.admin.username,
    });
    expect(synced.results[3]).toMatchObject({
      first_scanned_at: "2026-12-20T17:07:00.000Z",
      scanned_at: "2026-12-20T17:09:00.000Z",
      first_scanned_by: shop.staff.username,
    });
    expect(synced.results[4]).toMatchObject({ reason: "unknown" });
    expect(await bookingStatistics(database.db, shop.merchantId, { eventId: event.id })).toEqual({
      booked: 3,
      attended: 3,
      not_attended: 0,
    });

    // The device did not hear the answer and sends the same scans again: no new conflicts appear.
    const resent = await syncOfflineScans(database.db, {
      merchantId: shop.merchantId,
      eventId: event.id,
      actor: shop.staff,
      scans: scans.slice(1, 3),
    });
    expect(resent.ok && resent.results.map((result) => result.status)).toEqual(["admitted", "admitted"]);
    const offlineRows = await database.db
      .selectFrom("event_scans")
      .select(["offline", "device_scanned_at"])
      .where("event_id", "=", event.id)
      .where("offline", "=", 1)
      .execute();
    expect(offlineRows.length).toBe(7);
  });
});
