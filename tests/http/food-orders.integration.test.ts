import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { orderQrContent } from "~/sections/food-ordering/domain/order-qr.server";
import { createUser, DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { insertFoodOrder, insertOrdersMenu, type OrdersMenu } from "../support/food-fixtures-forders";

/**
 * Staff's food orders through the production build: the list and its filters, an order's details,
 * the kitchen's workflow, QR fulfilment, the Orders badge and 'Order created' — pages without
 * JavaScript and the orders API.
 */
let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let menu: OrdersMenu;
let otherMenu: OrdersMenu;
let kitchenId: number;

const API = "/api/v1/plugins/food_ordering";

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Grill");
  other = await seedMerchant(database.db, "Rival");
  kitchenId = await createUser(database.db, shop.merchantId, {
    username: "grill-kitchen",
    email: "kitchen@grill.example",
    firstName: "Kitchen",
    lastName: "Lead",
    permissions: ["view_order", "change_order"],
  });
  await createUser(database.db, shop.merchantId, {
    username: "grill-viewer",
    email: "viewer@grill.example",
    firstName: "Front",
    lastName: "Desk",
    permissions: ["view_order"],
  });
  await createUser(database.db, shop.merchantId, {
    username: "grill-rider",
    email: "rider@grill.example",
    firstName: "Rider",
    lastName: "One",
    permissions: ["scan_order", "view_order"],
  });
  menu = await insertOrdersMenu(database.db, shop.merchantId, { branch: "Salmiya", quantity: 20 });
  otherMenu = await insertOrdersMenu(database.db, other.merchantId, { branch: "Rival Hawalli" });
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const bearer = async (username: string) => ({
  Authorization: `Bearer ${(await app.apiToken(username, DEMO_PASSWORD)).access}`,
});

describe("the orders list", () => {
  it("lists the merchant's orders, filters them in the query string and highlights the unopened ones", async () => {
    const hessa = await insertFoodOrder(database.db, shop.merchantId, menu, {
      name: "Hessa Al-Mutairi",
      phone: "+96550007777",
      status: "new",
    });
    const ready = await insertFoodOrder(database.db, shop.merchantId, menu, {
      name: "Bader Al-Enezi",
      status: "ready",
      deliveryType: "pickup",
      seen: true,
    });
    await insertFoodOrder(database.db, other.merchantId, otherMenu, { name: "Rival Customer" });
    const cookie = await app.signIn("grill-viewer", DEMO_PASSWORD);

    const all = await app.request("/en/food-ordering/orders", { cookie });
    expect(all.status).toBe(200);
    const html = await all.text();
    expect(html).toContain("Hessa Al-Mutairi");
    expect(html).toContain("Bader Al-Enezi");
    expect(html).not.toContain("Rival Customer");
    // Without JavaScript the list reloads itself every 10 s; ?refresh=0 stops it.
    expect(html).toMatch(/http-equiv="refresh" content="10"/);
    expect(await (await app.request("/en/food-ordering/orders?refresh=0", { cookie })).text()).not.toMatch(
      /http-equiv="refresh"/,
    );
    expect(html).toMatch(new RegExp(`data-new="true"[^>]*>[\\s\\S]*?orders/${hessa.id}"`));
    expect(html).not.toMatch(new RegExp(`data-new="true"[^>]*>[\\s\\S]{0,400}orders/${ready.id}"`));

    const byStatus = await (await app.request("/en/food-ordering/orders?status=ready", { cookie })).text();
    expect(byStatus).toContain("Bader Al-Enezi");
    expect(byStatus).not.toContain("Hessa Al-Mutairi");
    const byPhone = await (await app.request("/en/food-ordering/orders?q=50007777", { cookie })).text();
    expect(byPhone).toContain("Hessa Al-Mutairi");
    expect(byPhone).not.toContain("Bader Al-Enezi");

    const headers = await bearer("grill-viewer");
    const byNumber = (await (await app.request(`${API}/order?q=${hessa.number}`, { headers })).json()) as {
      count: number;
      results: { id: number; customer_name: string; status: string; total: string }[];
    };
    expect(byNumber.count).toBe(1);
    expect(byNumber.results[0]).toMatchObject({
      id: hessa.id,
      customer_name: "Hessa Al-Mutairi",
      status: "new",
      total: "4.500",
    });
    const pickups = (await (
      await app.request(`${API}/order?delivery_type=pickup&branch=${menu.branchId}`, { headers })
    ).json()) as { results: { id: number }[] };
    expect(pickups.results.map((row) => row.id)).toEqual([ready.id]);
    const bad = await app.request(`${API}/order?status=lost&created_after=yesterday`, { headers });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      status: ["Choose one of the order's states."],
      created_after: ["Enter a date as 2026-12-20."],
    });
    const options = (await (await app.request(`${API}/order`, { method: "OPTIONS", headers })).json()) as {
      statuses: string[];
    };
    expect(options.statuses).toContain("out_for_delivery");
  });
});

describe("an order's details", () => {
  it("shows what the kitchen needs, the map link and the QR code, and has a kitchen ticket without the menu", async () => {
    const order = await insertFoodOrder(database.db, shop.merchantId, menu, {
      name: "Noura",
      quantity: 2,
      lat: 29.3375,
      lng: 48.0758,
    });
    const cookie = await app.signIn("grill-viewer", DEMO_PASSWORD);
    const html = await (await app.request(`/en/food-ordering/orders/${order.id}`, { cookie })).text();
    for (const text of [
      "Mixed grill",
      "Large",
      "Extra bread",
      "Spice: Mild",
      "No onions please",
      "Noura",
      "+96550001234",
      "Baghdad St",
      "Salmiya",
      "9.000",
    ])
      expect(html).toContain(text);
    expect(html).toContain("https://www.google.com/maps/search/?api=1&amp;query=29.3375,48.0758");
    expect(html).toContain("data:image/svg+xml;base64,");
    expect(html).toContain(await orderQrContent(database.db, order.id));
    expect(html).toContain(`/en/food-ordering/orders/${order.id}/duplicate`);
    // A viewer without change_order gets no state buttons.
    // Not offered as a button (the page's words also travel as data, in the section layout's loader).
    expect(html).not.toMatch(/>Start preparing</);
    expect(html).not.toContain(">Accept<");

    const ticket = await (await app.request(`/en/food-ordering/orders/${order.id}/duplicate`, { cookie })).text();
    expect(ticket).toContain("No onions please");
    expect(ticket).not.toContain('id="main-menu"');
    expect(html).toContain('id="main-menu"');

    const arabic = await (
      await app.request(`/ar/food-ordering/orders/${order.id}`, {
        cookie: await app.signIn("grill-viewer", DEMO_PASSWORD, "ar"),
      })
    ).text();
    expect(arabic).toContain("مشاوي مشكلة");
    expect(arabic).toContain("تذكرة المطبخ");

    const api = (await (
      await app.request(`${API}/order/${order.id}`, { headers: await bearer("grill-viewer") })
    ).json()) as Record<string, unknown>;
    expect(api).toMatchObject({
      id: order.id,
      number: order.number,
      status: "new",
      total: "9.000",
      next_statuses: ["accepted"],
      map_url: expect.stringContaining("29.3375,48.0758"),
    });
    expect((api.lines as unknown[])[0]).toMatchObject({
      name: "Mixed grill",
      size: "Large",
      quantity: 2,
      special_instructions: "No onions please",
      add_ons: [{ name: "Extra bread" }],
      options: [{ group: "Spice", choice: "Mild" }],
    });
    const foreign = await insertFoodOrder(database.db, other.merchantId, otherMenu);
    expect((await app.request(`${API}/order/${foreign.id}`, { headers: await bearer("grill-viewer") })).status).toBe(
      404,
    );
    expect((await app.request(`/en/food-ordering/orders/${foreign.id}`, { cookie })).status).toBe(404);
  });
});

describe("the kitchen's workflow", () => {
  it("moves an order along its states, refuses moves the workflow does not allow, and a cancel gives the portions back", async () => {
    const order = await insertFoodOrder(database.db, shop.merchantId, menu, { quantity: 3, transaction: true });
    const left = async () =>
      (
        await database.db
          .selectFrom("food_items")
          .select("quantity")
          .where("id", "=", menu.itemId)
          .executeTakeFirstOrThrow()
      ).quantity;
    const before = await left();
    const cookie = await app.signIn("grill-kitchen", DEMO_PASSWORD);
    const page = `/en/food-ordering/orders/${order.id}`;
    expect(await (await app.request(page, { cookie })).text()).toContain(">Accept<");

    const accepted = await app.request(page, { cookie, form: { intent: "status", status: "accepted" } });
    expect(accepted.status).toBe(302);
    const flashOf = (response: Response) =>
      decodeURIComponent(response.headers.getSetCookie().find((value) => value.startsWith("kp_flash=")) ?? "");
    // The notice is a translation key the next page writes out: "The order is now accepted."
    expect(flashOf(accepted)).toContain('"message":"food_orders.moved_to.accepted"');
    const after = await (await app.request(page, { cookie })).text();
    expect(after).toContain("Start preparing");

    const skipped = await app.request(page, { cookie, form: { intent: "status", status: "delivered" } });
    expect(skipped.status).toBe(400);
    expect(await skipped.text()).toContain("The order cannot move to this state from where it is.");

    const headers = await bearer("grill-kitchen");
    const preparing = await app.request(`${API}/order/update/${order.id}`, {
      method: "PATCH",
      headers,
      json: { status: "preparing" },
    });
    expect(preparing.status).toBe(200);
    expect(await preparing.json()).toMatchObject({ status: "preparing", next_statuses: ["ready"] });
    const refused = await app.request(`${API}/order/update/${order.id}`, {
      method: "PATCH",
      headers: { ...headers, "Accept-Language": "ar" },
      json: { status: "picked_up" },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { status: string[] }).status[0]).toMatch(/[\u0600-\u06FF]/);

    // Cancel asks first, then gives the three portions back.
    expect(await (await app.request(`${page}?confirm=cancel`, { cookie })).text()).toContain(
      "Are you sure you want to cancel this order?",
    );
    const canceled = await app.request(page, { cookie, form: { intent: "cancel" } });
    expect(canceled.status).toBe(302);
    expect(await left()).toBe((before ?? 0) + 3);
    expect(flashOf(canceled)).toContain('"message":"food_orders.canceled_notice.plain"');
    const again = await app.request(`${API}/order/update/${order.id}`, {
      method: "PATCH",
      headers,
      json: { status: "canceled" },
    });
    expect(again.status).toBe(400);
    expect(await left()).toBe((before ?? 0) + 3);
  });

  it("a delivered order goes out for delivery; a pickup is picked up", async () => {
    const headers = await bearer("grill-kitchen");
    const pickup = await insertFoodOrder(database.db, shop.merchantId, menu, {
      status: "ready",
      deliveryType: "pickup",
    });
    expect(
      (
        await app.request(`${API}/order/update/${pickup.id}`, {
          method: "PATCH",
          headers,
          json: { status: "out_for_delivery" },
        })
      ).status,
    ).toBe(400);
    const picked = await app.request(`${API}/order/update/${pickup.id}`, {
      method: "PATCH",
      headers,
      json: { status: "picked_up" },
    });
    expect(await picked.json()).toMatchObject({ status: "picked_up", cancelable: false });
  });
});

describe("permissions", () => {
  it("needs view_order to read, change_order to move and scan_order to scan", async () => {
    const order = await insertFoodOrder(database.db, shop.merchantId, menu);
    const staff = await app.signIn(shop.staff.username, DEMO_PASSWORD);
    expect((await app.request("/en/food-ordering/orders", { cookie: staff })).status).toBe(403);
    expect((await app.request(`/en/food-ordering/orders/${order.id}`, { cookie: staff })).status).toBe(403);
    expect((await app.request(`${API}/order`, { headers: await bearer(shop.staff.username) })).status).toBe(403);

    const viewer = await app.signIn("grill-viewer", DEMO_PASSWORD);
    expect(
      (
        await app.request(`/en/food-ordering/orders/${order.id}`, {
          cookie: viewer,
          form: { intent: "status", status: "accepted" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await app.request(`${API}/order/update/${order.id}`, {
          method: "PATCH",
          headers: await bearer("grill-viewer"),
          json: { status: "accepted" },
        })
      ).status,
    ).toBe(403);
    expect((await app.request("/en/food-ordering/fulfillment", { cookie: viewer })).status).toBe(403);
    const state = await database.db
      .selectFrom("food_orders")
      .select("status")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(state.status).toBe("new");
  });
});

describe("QR fulfilment", () => {
  it("opens the merchant's own order and refuses a forged code or another merchant's order", async () => {
    const order = await insertFoodOrder(database.db, shop.merchantId, menu);
    const foreign = await insertFoodOrder(database.db, other.merchantId, otherMenu);
    const code = await orderQrContent(database.db, order.id);
    const cookie = await app.signIn("grill-rider", DEMO_PASSWORD);
    expect(await (await app.request("/en/food-ordering/fulfillment", { cookie })).text()).toContain("Scan an order");

    const opened = await app.request("/en/food-ordering/fulfillment", { cookie, form: { code } });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(`/en/food-ordering/orders/${order.id}`);

    const forged = await app.request("/en/food-ordering/fulfillment", {
      cookie,
      form: { code: `FOOD1.${order.id}.AAAAAAAAAAAAAAAA` },
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Invalid QR Code");
    const theirs = await app.request("/en/food-ordering/fulfillment", {
      cookie,
      form: { code: await orderQrContent(database.db, foreign.id) },
    });
    expect(await theirs.text()).toContain("Invalid QR Code");
    const arabic = await app.request("/ar/food-ordering/fulfillment", {
      cookie: await app.signIn("grill-rider", DEMO_PASSWORD, "ar"),
      form: { code: "nonsense" },
    });
    expect(await arabic.text()).toContain("رمز QR غير صالح");

    const headers = await bearer("grill-rider");
    const allowed = await app.request(`${API}/order/scan-permission/${encodeURIComponent(code)}`, { headers });
    expect(await allowed.json()).toEqual({ has_permission: true, order_id: order.id });
    const denied = await app.request(
      `${API}/order/scan-permission/${encodeURIComponent(await orderQrContent(database.db, foreign.id))}`,
      { headers },
    );
    expect(await denied.json()).toEqual({ has_permission: false, order_id: null });
    expect(
      (
        await app.request(`${API}/order/scan-permission/${encodeURIComponent(code)}`, {
          headers: await bearer("grill-viewer"),
        })
      ).status,
    ).toBe(403);
  });
});

describe("new orders for staff", () => {
  it("counts unopened orders on the Orders badge and opening one takes it off", async () => {
    const fresh = await seedMerchant(database.db, "Badge");
    const badgeMenu = await insertOrdersMenu(database.db, fresh.merchantId);
    const first = await insertFoodOrder(database.db, fresh.merchantId, badgeMenu);
    await insertFoodOrder(database.db, fresh.merchantId, badgeMenu);
    await insertFoodOrder(database.db, fresh.merchantId, badgeMenu, { status: "pending_payment", transaction: true });
    const cookie = await app.signIn(fresh.admin.username, DEMO_PASSWORD);
    const badge = async () =>
      /href="\/en\/food-ordering\/orders"[\s\S]*?<\/a>/.exec(
        await (await app.request("/en/food-ordering/orders", { cookie })).text(),
      )?.[0] ?? "";
    expect(await badge()).toMatch(/>2</);
    await app.request(`/en/food-ordering/orders/${first.id}`, { cookie });
    expect(await badge()).toMatch(/>1</);
  });

  it("a placed order tells the users who opted in to order notifications and mails the customer", async () => {
    const fresh = await seedMerchant(database.db, "Notify");
    const notifyMenu = await insertOrdersMenu(database.db, fresh.merchantId);
    await database.db
      .updateTable("users")
      .set({ receive_order_notification: 1 })
      .where("id", "=", fresh.admin.id)
      .execute();
    const order = await insertFoodOrder(database.db, fresh.merchantId, notifyMenu, {
      status: "pending_payment",
      transaction: true,
      email: "fatma@example.com",
    });
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, order.transactionId!, "paid", { kind: "payment", attemptId: "fixture-attempt" }),
    );

    const notices = await database.db
      .selectFrom("notifications")
      .select(["user_id", "kind", "title", "link"])
      .where("merchant_id", "=", fresh.merchantId)
      .execute();
    expect(notices).toEqual([
      {
        user_id: fresh.admin.id,
        kind: "order_created",
        title: "Order created",
        link: `/en/food-ordering/orders/${order.id}`,
      },
    ]);
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .selectAll()
      .where("merchant_id", "=", fresh.merchantId)
      .execute();
    expect(mail).toHaveLength(1);
    expect(JSON.stringify(mail[0])).toContain(`/en/new-menu/order-confirmation/${order.number}`);
    const state = await database.db
      .selectFrom("food_orders")
      .select("status")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(state.status).toBe("new");
    expect(kitchenId).toBeGreaterThan(0);
  });
});
