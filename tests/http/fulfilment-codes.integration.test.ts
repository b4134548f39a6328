import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacSha256 } from "~/lib/crypto.server";
import { getAppSecret } from "~/lib/secret.server";
import { qrContentOf } from "~/sections/event/domain/tickets.server";
import { orderQrContent } from "~/sections/food-ordering/domain/order-qr.server";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { insertCheckinBooking, insertCheckinEvent } from "../support/event-fixtures-checkin";
import { insertFoodOrder, insertOrdersMenu } from "../support/food-fixtures-forders";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * One QR format for the event's door and the food counter (app/domain/commerce): each takes only its
 * own kind of code, signed by the platform, for the scanning merchant; codes printed before the
 * format was shared keep working on both.
 */
let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let headers: Record<string, string>;

const VALIDATE = "/api/v1/plugins/event/validate_qr_code";
const scanPermission = (code: string) =>
  `/api/v1/plugins/food_ordering/order/scan-permission/${encodeURIComponent(code)}`;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Hall");
  other = await seedMerchant(database.db, "Across");
  await createUser(database.db, shop.merchantId, {
    username: "hall-staff",
    email: "staff@hall.example",
    firstName: "Front",
    lastName: "Staff",
    permissions: ["scan_booking", "scan_order", "view_order"],
  });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  headers = { Authorization: `Bearer ${(await app.apiToken("hall-staff", DEMO_PASSWORD)).access}` };
});
afterAll(async () => database?.destroy());

async function admitted(eventId: number) {
  const rows = await database.db
    .selectFrom("booking_members")
    .select("number")
    .where("event_id", "=", eventId)
    .where("scanned_at", "is not", null)
    .execute();
  return rows.map((row) => row.number);
}

/** A code signed as tickets and orders were before the format was shared (decision 0023; the food order's QR). */
async function printedBefore(prefix: string, purpose: string, fields: string[]) {
  const secret = await getAppSecret(database.db);
  const signature = Buffer.from(hmacSha256(`${purpose}:${secret}`, fields.join(".")), "hex")
    .subarray(0, 12)
    .toString("base64url");
  return `${prefix}.${fields.join(".")}.${signature}`;
}

describe("fulfilment codes at the door and the counter", () => {
  it("refuses a food order's code at check-in and a ticket's code at the counter", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    await insertCheckinBooking(database.db, shop.merchantId, event);
    const menu = await insertOrdersMenu(database.db, shop.merchantId);
    const order = await insertFoodOrder(database.db, shop.merchantId, menu);
    // An order whose id is the event's: the kind, not the number, tells them apart.
    const foodCode = await orderQrContent(database.db, event.id);
    for (const qrcode of [foodCode, await orderQrContent(database.db, order.id)]) {
      const refused = await app.request(VALIDATE, { headers, json: { event_id: event.id, qrcode } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: "unknown" });
    }
    expect(await admitted(event.id)).toEqual([]);

    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    const ticketCode = await qrContentOf(database.db, event.id, numbers[0]);
    expect(await (await app.request(scanPermission(ticketCode), { headers })).json()).toEqual({
      has_permission: false,
      order_id: null,
    });
    const cookie = await app.signIn("hall-staff", DEMO_PASSWORD);
    const counter = await app.request("/en/food-ordering/fulfillment", { cookie, form: { code: ticketCode } });
    expect(counter.status).toBe(400);
    expect(await counter.text()).toContain("Invalid QR Code");
    // Each is still good where it belongs.
    expect((await app.request(VALIDATE, { headers, json: { event_id: event.id, qrcode: ticketCode } })).status).toBe(
      200,
    );
    expect(
      await (await app.request(scanPermission(await orderQrContent(database.db, order.id)), { headers })).json(),
    ).toEqual({ has_permission: true, order_id: order.id });
  });

  it("refuses a code whose number was changed to another real one", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event, { quantity: 2 });
    const [prefix, eventId, , signature] = (await qrContentOf(database.db, event.id, numbers[0])).split(".");
    const tampered = [prefix, eventId, numbers[1], signature].join(".");
    expect(
      await (await app.request(VALIDATE, { headers, json: { event_id: event.id, qrcode: tampered } })).json(),
    ).toMatchObject({ code: "unknown" });
    expect(await admitted(event.id)).toEqual([]);

    const menu = await insertOrdersMenu(database.db, shop.merchantId);
    const mine = await insertFoodOrder(database.db, shop.merchantId, menu);
    const next = await insertFoodOrder(database.db, shop.merchantId, menu);
    const orderSignature = (await orderQrContent(database.db, mine.id)).split(".")[2];
    expect(await (await app.request(scanPermission(`FOOD1.${next.id}.${orderSignature}`), { headers })).json()).toEqual(
      { has_permission: false, order_id: null },
    );
  });

  it("refuses another merchant's ticket and order", async () => {
    const mine = await insertCheckinEvent(database.db, shop.merchantId);
    const theirs = await insertCheckinEvent(database.db, other.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, other.merchantId, theirs);
    const code = await qrContentOf(database.db, theirs.id, numbers[0]);
    expect(
      await (await app.request(VALIDATE, { headers, json: { event_id: mine.id, qrcode: code } })).json(),
    ).toMatchObject({ code: "unknown" });
    expect(
      await (await app.request(VALIDATE, { headers, json: { event_id: theirs.id, qrcode: code } })).json(),
    ).toMatchObject({ code: "no_event" });
    expect(await admitted(theirs.id)).toEqual([]);
    const theirMenu = await insertOrdersMenu(database.db, other.merchantId);
    const order = await insertFoodOrder(database.db, other.merchantId, theirMenu);
    expect(
      await (await app.request(scanPermission(await orderQrContent(database.db, order.id)), { headers })).json(),
    ).toEqual({ has_permission: false, order_id: null });
  });

  it("still takes the codes printed on tickets and confirmations before the format was shared", async () => {
    const event = await insertCheckinEvent(database.db, shop.merchantId);
    const { numbers } = await insertCheckinBooking(database.db, shop.merchantId, event);
    const ticket = await printedBefore("EVT1", "event-ticket", [String(event.id), numbers[0]]);
    const answer = await app.request(VALIDATE, { headers, json: { event_id: event.id, qrcode: ticket } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ qr_number: numbers[0] });

    const menu = await insertOrdersMenu(database.db, shop.merchantId);
    const order = await insertFoodOrder(database.db, shop.merchantId, menu);
    const confirmation = await printedBefore("FOOD1", "food-order", [String(order.id)]);
    expect(await (await app.request(scanPermission(confirmation), { headers })).json()).toEqual({
      has_permission: true,
      order_id: order.id,
    });
  });
});
