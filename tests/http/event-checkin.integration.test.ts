import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { insertCheckinBooking, insertCheckinEvent } from "../support/event-fixtures-checkin";
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
  await createUser(database.db, shop.merchantId, { username: "gate-door", email: "door@gate.example", firstName: "Door", lastName: "Keeper", permissions: ["scan_booking"] });
  event = await insertCheckinEvent(database.db, shop.merchantId, { title: "Gala" });
  otherEvent = await insertCheckinEvent(database.db, shop.merchantId, { title: "Matinee" });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const bearer = async (username: string) => ({ Authorization: `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}` });

describe("the door page without JavaScript", () => {
  it("asks for an event, then shows the tiles and checks a typed number in once", async () => {
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, { quantity: 2, firstName: "Hessa", lastName: "Al-Mutairi" });
    const cookie = await app.signIn("gate-door", DEMO_PASSWORD);
    const empty = await app.request("/en/event/fullfilment", { cookie });
    expect(empty.status).toBe(200);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain("Please select any event.");
    expect(emptyHtml).toContain("Gala");

    const path = `/en/event/fullfilment?event=${event.id}`;
    const before = await (await app.request(path, { cookie })).text();
    expect(before).toMatch(/Booked[\s\S]*?>2</);

    const admitted = await app.request(path, { cookie, form: { event: String(event.id), qrcode: numbers[0].toLowerCase() } });
    expect(admitted.status).toBe(200);
    const html = await admitted.text();
    expect(html).toMatch(/>QR code is valid\. Access granted</);
    expect(html).toContain(numbers[0]);
    expect(html).toContain("Hessa Al-Mutairi");
    expect(html).toContain("2026-12-20 18:00–22:00");
    const after = await (await app.request(path, { cookie })).text();
    expect(after).toMatch(/Attended[\s\S]*?>1</);

    const again = await (await app.request(path, { cookie, form: { event: String(event.id), qrcode: numbers[0] } })).text();
    expect(again).toContain("This ticket was already used on");
    // Shown as a page's text (the page's words also travel as data, in its layout's loader).
    expect(again).not.toMatch(/>QR code is valid\. Access granted</);
  });

  it("answers in Arabic and refuses another event's ticket", async () => {
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, otherEvent);
    const cookie = await app.signIn("gate-door", DEMO_PASSWORD, "ar");
    const html = await (await app.request(`/ar/event/fullfilment?event=${event.id}`, { cookie, form: { event: String(event.id), qrcode: numbers[0] } })).text();
    expect(html).toContain("هذه التذكرة لفعالية أخرى.");
  });

  it("is closed to a user without the scan permission", async () => {
    const cookie = await app.signIn(shop.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/event/fullfilment", { cookie })).status).toBe(403);
  });
});

describe("the check-in API", () => {
  it("validates a QR code once, then answers why it cannot be used again", async () => {
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, { firstName: "Ali", lastName: "Hasan" });
    const headers = await bearer("gate-door");
    const qrcode = await qrContentOf(database.db, event.id, numbers[0]);
    const ok = await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: { event_id: event.id, qrcode } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ qr_number: numbers[0], customer_first_name: "Ali", customer_last_name: "Hasan", slot: "2026-12-20 18:00–22:00", ticket: "Standing" });

    const used = await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: { event_id: event.id, qrcode } });
    expect(used.status).toBe(400);
    const body = (await used.json()) as { qrcode: string[]; code: string; scanned_at: string };
    expect(body.code).toBe("already_used");
    expect(body.qrcode[0]).toContain("already used");
    expect(body.scanned_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const forged = await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: { event_id: event.id, qrcode: `${qrcode.slice(0, -4)}AAAA` } });
    expect(await forged.json()).toMatchObject({ code: "unknown" });
    const missing = await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ event_id: ["This field is required"], qrcode: ["This field is required"] });
  });

  it("counts booked, attended and not attended places", async () => {
    const fresh = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, fresh, { quantity: 3 });
    await insertCheckinBooking(database.db, shop.merchantId, fresh, { status: "pending" });
    const headers = await bearer(shop.admin.username);
    await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: { event_id: fresh.id, qrcode: numbers[1] } });
    const statistics = await app.request(`/api/v1/plugins/event/checkin/statistics?event=${fresh.id}`, { headers });
    expect(await statistics.json()).toEqual({ booked: 3, attended: 1, not_attended: 2 });
    // Statistics also need view_booking, which the door keeper has not.
    expect((await app.request(`/api/v1/plugins/event/checkin/statistics?event=${fresh.id}`, { headers: await bearer("gate-door") })).status).toBe(403);
  });

  it("lets the page's session cookie sync offline scans and reports a place admitted twice", async () => {
    const fresh = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, fresh, { quantity: 2 });
    const cookie = await app.signIn("gate-door", DEMO_PASSWORD);
    const list = await app.request(`/api/v1/plugins/event/checkin/list?event=${fresh.id}`, { cookie });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { places: { number: string; scanned: boolean }[]; signature: string; made_at: string };
    expect(listed.places.map((place) => place.number).sort()).toEqual([...numbers].sort());
    expect(listed.signature).toMatch(/^[0-9a-f]{64}$/);

    // Another device admits the first place while this one is offline.
    await app.request("/api/v1/plugins/event/validate_qr_code", { headers: await bearer(shop.admin.username), json: { event_id: fresh.id, qrcode: numbers[0] } });
    const scans = [
      { code: numbers[0], scanned_at: new Date(Date.now() - 60_000).toISOString() },
      { code: numbers[1], scanned_at: new Date(Date.now() - 30_000).toISOString() },
    ];
    const refused = await app.request("/api/v1/plugins/event/checkin/sync", { cookie, json: { event_id: fresh.id, scans } });
    expect(refused.status).toBe(403);
    const synced = await app.request("/api/v1/plugins/event/checkin/sync", { cookie, headers: { Origin: "http://localhost", "Idempotency-Key": "door-1" }, json: { event_id: fresh.id, scans } });
    expect(synced.status).toBe(200);
    const answer = (await synced.json()) as { conflicts: number; results: { status: string; message: string }[] };
    expect(answer.conflicts).toBe(1);
    expect(answer.results.map((result) => result.status)).toEqual(["conflict", "admitted"]);
    expect(answer.results[0].message).toContain("Admitted twice");
    const statistics = await app.request(`/api/v1/plugins/event/checkin/statistics?event=${fresh.id}`, { headers: await bearer(shop.admin.username) });
    expect(await statistics.json()).toEqual({ booked: 2, attended: 2, not_attended: 0 });
  });

  it("keeps each merchant to its own events and asks who is calling", async () => {
    const theirs = await insertCheckinEvent(database.db, other.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, other.merchantId, theirs);
    const headers = await bearer(shop.admin.username);
    const answer = await app.request("/api/v1/plugins/event/validate_qr_code", { headers, json: { event_id: theirs.id, qrcode: numbers[0] } });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "no_event" });
    expect((await app.request(`/api/v1/plugins/event/checkin/list?event=${theirs.id}`, { headers })).status).toBe(400);
    expect((await app.request(`/api/v1/plugins/event/checkin/list?event=${event.id}`)).status).toBe(401);
    expect((await app.request("/api/v1/plugins/event/validate_qr_code", { headers: await bearer(shop.staff.username), json: { event_id: event.id, qrcode: "X" } })).status).toBe(403);
  });
});
