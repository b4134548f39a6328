import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DateTime } from "luxon";
import { doorToday, insertCheckinBooking, insertCheckinEvent } from "../support/event-fixtures-checkin";
import { formatDay } from "~/lib/format";
import { qrContentOf } from "~/sections/event/domain/tickets.server";

/**
 * Check-in at the door through the production build: the page's forms without JavaScript, and the
 * API staff devices call (bearer token, or the page's own session cookie).
 */
let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let event: Awaited<ReturnType<typeof insertCheckinEvent>>;
let otherEvent: Awaited<ReturnType<typeof insertCheckinEvent>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Gate");
  other = await seedMerchant(database.db, "Away");
  await createUser(database.db, shop.merchantId, {
    username: "gate-door",
    email: "door@gate.example",
    firstName: "Door",
    lastName: "Keeper",
    permissions: ["scan_booking"],
  });
  event = await insertCheckinEvent(database.db, shop.merchantId, { title: "Gala" });
  otherEvent = await insertCheckinEvent(database.db, shop.merchantId, { title: "Matinee" });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

/** A week after today in Kuwait: another date of the event. */
const inAWeek = () => DateTime.fromISO(doorToday()).plus({ days: 7 }).toFormat("yyyy-MM-dd") as string;

const bearer = async (username: string) => ({
  Authorization: `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}`,
});

describe("the door page without JavaScript", () => {
  it("asks for an event, then shows the tiles and checks a typed number in once", async () => {
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, {
      quantity: 2,
      firstName: "Hessa",
      lastName: "Al-Mutairi",
    });
    const cookie = await app.signIn("gate-door", DEMO_PASSWORD);
    const empty = await app.request("/en/event/fullfilment", { cookie });
    expect(empty.status).toBe(200);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain("Please select any event.");
    expect(emptyHtml).toContain("Gala");

    const path = `/en/event/fullfilment?event=${event.id}`;
    const before = await (await app.request(path, { cookie })).text();
    expect(before).toMatch(/Booked[\s\S]*?>2</);

    const admitted = await app.request(path, {
      cookie,
      form: { event: String(event.id), qrcode: numbers[0].toLowerCase() },
    });
    expect(admitted.status).toBe(200);
    const html = await admitted.text();
    expect(html).toMatch(/>QR code is valid\. Access granted</);
    expect(html).toContain(numbers[0]);
    expect(html).toContain("Hessa Al-Mutairi");
    expect(html).toContain(`${event.date} 18:00–22:00`);
    const after = await (await app.request(path, { cookie })).text();
    expect(after).toMatch(/Attended[\s\S]*?>1</);

    const again = await (
      await app.request(path, { cookie, form: { event: String(event.id), qrcode: numbers[0] } })
    ).text();
    expect(again).toContain("This ticket was already used on");
    // Shown as a page's text (the page's words also travel as data, in its layout's loader).
    expect(again).not.toMatch(/>QR code is valid\. Access granted</);
  });

  it("answers in Arabic and refuses another event's ticket", async () => {
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, otherEvent);
    const cookie = await app.signIn("gate-door", DEMO_PASSWORD, "ar");
    const html = await (
      await app.request(`/ar/event/fullfilment?event=${event.id}`, {
        cookie,
        form: { event: String(event.id), qrcode: numbers[0] },
      })
    ).text();
    expect(html).toContain("هذه التذكرة لفعالية أخرى.");
  });

  it("refuses a ticket of another date with its date, and offers to admit it anyway only to staff who may", async () => {
    const nextWeek = await insertCheckinEvent(database.db, shop.merchantId, { title: "Encore", date: inAWeek() });
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, nextWeek, { firstName: "Dana" });
    const path = `/en/event/fullfilment?event=${nextWeek.id}`;
    const door = await app.signIn("gate-door", DEMO_PASSWORD);
    const refused = await (
      await app.request(path, { cookie: door, form: { event: String(nextWeek.id), qrcode: numbers[0] } })
    ).text();
    expect(refused).toContain(`>This ticket is for ${formatDay(nextWeek.date, "en")}.<`);
    expect(refused).not.toMatch(/>Admit anyway</);
    // Without the permission, the choice is refused even when sent.
    expect(
      (
        await app.request(path, {
          cookie: door,
          form: { event: String(nextWeek.id), qrcode: numbers[0], any_date: "1" },
        })
      ).status,
    ).toBe(403);

    const arabic = await (
      await app.request(`/ar/event/fullfilment?event=${nextWeek.id}`, {
        cookie: await app.signIn("gate-door", DEMO_PASSWORD, "ar"),
        form: { event: String(nextWeek.id), qrcode: numbers[0] },
      })
    ).text();
    expect(arabic).toContain(`هذه التذكرة ليوم ${formatDay(nextWeek.date, "ar")}.`);

    const admin = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const offered = await (
      await app.request(path, { cookie: admin, form: { event: String(nextWeek.id), qrcode: numbers[0] } })
    ).text();
    expect(offered).toMatch(/<button[^>]*name="any_date"[^>]*>[\s\S]*?>Admit anyway</);
    const admitted = await (
      await app.request(path, {
        cookie: admin,
        form: { event: String(nextWeek.id), qrcode: numbers[0], any_date: "1" },
      })
    ).text();
    expect(admitted).toMatch(/>QR code is valid\. Access granted</);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["actor_name", "object_type"])
      .where("action", "=", "checkin_other_date")
      .where("object_type", "=", "booking_member")
      .where("description", "like", `%${numbers[0]}%`)
      .execute();
    expect(audit).toEqual([{ actor_name: shop.admin.username, object_type: "booking_member" }]);
  });

  it("is closed to a user without the scan permission", async () => {
    const cookie = await app.signIn(shop.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/event/fullfilment", { cookie })).status).toBe(403);
  });
});

describe("the check-in API", () => {
  it("validates a QR code once, then answers why it cannot be used again", async () => {
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, {
      firstName: "Ali",
      lastName: "Hasan",
    });
    const headers = await bearer("gate-door");
    const qrcode = await qrContentOf(database.db, event.id, numbers[0]);
    const ok = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers,
      json: { event_id: event.id, qrcode },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      qr_number: numbers[0],
      customer_first_name: "Ali",
      customer_last_name: "Hasan",
      slot: `${event.date} 18:00–22:00`,
      ticket: "Standing",
    });

    const used = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers,
      json: { event_id: event.id, qrcode },
    });
    expect(used.status).toBe(400);
    const body = (await used.json()) as { qrcode: string[]; code: string; scanned_at: string };
    expect(body.code).toBe("already_used");
    expect(body.qrcode[0]).toContain("already used");
    expect(body.scanned_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const forged = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers,
      json: { event_id: event.id, qrcode: `${qrcode.slice(0, -4)}AAAA` },
    });
    expect(await forged.json()).toMatchObject({ code: "unknown" });
    const missing = await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ event_id: ["This field is required"], qrcode: ["This field is required"] });
  });

  it("refuses a ticket of another date with its date in the caller's language; admit_other_date_booking may let it in, audited", async () => {
    const nextWeek = await insertCheckinEvent(database.db, shop.merchantId, { date: inAWeek() });
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, nextWeek);
    const qrcode = await qrContentOf(database.db, nextWeek.id, numbers[0]);
    const door = await bearer("gate-door");
    const english = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers: door,
      json: { event_id: nextWeek.id, qrcode },
    });
    expect(english.status).toBe(400);
    const body = (await english.json()) as { code: string; qrcode: string[]; place: { event_date: string } };
    expect(body).toMatchObject({ code: "other_date", place: { event_date: nextWeek.date } });
    expect(body.qrcode).toEqual([`This ticket is for ${formatDay(nextWeek.date, "en")}.`]);
    const arabic = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers: { ...door, "Accept-Language": "ar" },
      json: { event_id: nextWeek.id, qrcode },
    });
    expect(((await arabic.json()) as { qrcode: string[] }).qrcode).toEqual([
      `هذه التذكرة ليوم ${formatDay(nextWeek.date, "ar")}.`,
    ]);
    expect(
      (
        await app.request("/api/v1/plugins/event/validate_qr_code", {
          headers: door,
          json: { event_id: nextWeek.id, qrcode, allow_other_date: true },
        })
      ).status,
    ).toBe(403);

    await createUser(database.db, shop.merchantId, {
      username: "gate-chief",
      email: "chief@gate.example",
      firstName: "Chief",
      lastName: "Keeper",
      permissions: ["scan_booking", "admit_other_date_booking"],
    });
    const anyway = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers: await bearer("gate-chief"),
      json: { event_id: nextWeek.id, qrcode, allow_other_date: true },
    });
    expect(anyway.status).toBe(200);
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["actor_name", "params"])
      .where("action", "=", "checkin_other_date")
      .where("actor_name", "=", "gate-chief")
      .execute();
    expect(audit.map((row) => ({ ...row, params: JSON.parse(row.params ?? "{}") }))).toEqual([
      { actor_name: "gate-chief", params: { number: numbers[0], date: nextWeek.date, event: nextWeek.title } },
    ]);

    // The offline queue's replay refuses it too, whoever synced it.
    const { numbers: queued } = await insertCheckinBooking(database.db, shop.merchantId, nextWeek);
    const synced = await app.request("/api/v1/plugins/event/checkin/sync", {
      headers: await bearer("gate-chief"),
      json: { event_id: nextWeek.id, scans: [{ code: queued[0], scanned_at: new Date().toISOString() }] },
    });
    expect(await synced.json()).toMatchObject({
      results: [
        { status: "refused", reason: "other_date", message: `This ticket is for ${formatDay(nextWeek.date, "en")}.` },
      ],
    });
    expect(
      (
        await database.db
          .selectFrom("booking_members")
          .select("scanned_at")
          .where("number", "=", queued[0])
          .executeTakeFirstOrThrow()
      ).scanned_at,
    ).toBeNull();
  });

  it("counts booked, attended and not attended places", async () => {
    const fresh = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, fresh, { quantity: 3 });
    await insertCheckinBooking(database.db, shop.merchantId, fresh, { status: "pending" });
    const headers = await bearer(shop.admin.username);
    await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers,
      json: { event_id: fresh.id, qrcode: numbers[1] },
    });
    const statistics = await app.request(`/api/v1/plugins/event/checkin/statistics?event=${fresh.id}`, { headers });
    expect(await statistics.json()).toEqual({ booked: 3, attended: 1, not_attended: 2 });
    // Statistics also need view_booking, which the door keeper has not.
    expect(
      (
        await app.request(`/api/v1/plugins/event/checkin/statistics?event=${fresh.id}`, {
          headers: await bearer("gate-door"),
        })
      ).status,
    ).toBe(403);
  });

  it("lets the page's session cookie sync offline scans and reports a place admitted twice", async () => {
    const fresh = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, fresh, { quantity: 2 });
    const cookie = await app.signIn("gate-door", DEMO_PASSWORD);
    const list = await app.request(`/api/v1/plugins/event/checkin/list?event=${fresh.id}`, { cookie });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as {
      places: { number: string; scanned: boolean }[];
      signature: string;
      made_at: string;
    };
    expect(listed.places.map((place) => place.number).sort()).toEqual([...numbers].sort());
    expect(listed.signature).toMatch(/^[0-9a-f]{64}$/);

    // Another device admits the first place while this one is offline.
    await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers: await bearer(shop.admin.username),
      json: { event_id: fresh.id, qrcode: numbers[0] },
    });
    const scans = [
      { code: numbers[0], scanned_at: new Date(Date.now() - 60_000).toISOString() },
      { code: numbers[1], scanned_at: new Date(Date.now() - 30_000).toISOString() },
    ];
    const refused = await app.request("/api/v1/plugins/event/checkin/sync", {
      cookie,
      json: { event_id: fresh.id, scans },
    });
    expect(refused.status).toBe(403);
    const synced = await app.request("/api/v1/plugins/event/checkin/sync", {
      cookie,
      headers: { Origin: "http://localhost", "Idempotency-Key": "door-1" },
      json: { event_id: fresh.id, scans },
    });
    expect(synced.status).toBe(200);
    const answer = (await synced.json()) as { conflicts: number; results: { status: string; message: string }[] };
    expect(answer.conflicts).toBe(1);
    expect(answer.results.map((result) => result.status)).toEqual(["conflict", "admitted"]);
    expect(answer.results[0].message).toContain("Admitted twice");
    const statistics = await app.request(`/api/v1/plugins/event/checkin/statistics?event=${fresh.id}`, {
      headers: await bearer(shop.admin.username),
    });
    expect(await statistics.json()).toEqual({ booked: 2, attended: 2, not_attended: 0 });
  });

  it("keeps each merchant to its own events and asks who is calling", async () => {
    const theirs = await insertCheckinEvent(database.db, other.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, other.merchantId, theirs);
    const headers = await bearer(shop.admin.username);
    const answer = await app.request("/api/v1/plugins/event/validate_qr_code", {
      headers,
      json: { event_id: theirs.id, qrcode: numbers[0] },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "no_event" });
    expect((await app.request(`/api/v1/plugins/event/checkin/list?event=${theirs.id}`, { headers })).status).toBe(400);
    expect((await app.request(`/api/v1/plugins/event/checkin/list?event=${event.id}`)).status).toBe(401);
    expect(
      (
        await app.request("/api/v1/plugins/event/validate_qr_code", {
          headers: await bearer(shop.staff.username),
          json: { event_id: event.id, qrcode: "X" },
        })
      ).status,
    ).toBe(403);
  });
});
