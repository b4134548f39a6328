import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestMenu, type TestMenu } from "../support/food-fixtures-fpublic";
import { createTestEvent } from "../support/event-fixtures-public";
import { createTestShop, inventoryOf } from "../support/cshop-fixtures";
import { wirePlatform } from "~/boot/wiring.server";
import { startAttempt } from "~/domain/payments/attempts.server";
import { MAX_UNPAID_CHECKOUTS, UNPAID_HOLD_MS } from "~/domain/payments/unpaid-holds.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { expireUnpaidOrders as expireCatalogueOrders } from "~/sections/catalogue/domain/orders.server";
import { releaseAllExpiredHolds } from "~/sections/event/domain/bookings.server";
import { expireUnpaidOrders as expireFoodOrders } from "~/sections/food-ordering/domain/orders.server";

// What customers' checkouts hold before they pay, in the three sections that hold stock (food
// portions, event places, catalogue units): a hold that never reaches a gateway page ends after the
// short unpaid hold, the full payment hold starting only with an attempt; one address holds only a
// few unpaid checkouts of a merchant at once, on the pages as on the API; the merchant reads what is
// held beside what is sold.

let database: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

const FOOD = "/api/v1/plugins/food_ordering/checkout";
const EVENT = "/api/v1/plugins/event/booking";
const SHOP = "/api/v1/plugins/catalogue/invoice/checkout";
const ADDRESSES = { publicBaseUrl: "http://localhost", internalBaseUrl: "http://127.0.0.1:1" };

type Stock = {
  merchant: Awaited<ReturnType<typeof seedMerchant>>;
  menu: TestMenu;
  event: Awaited<ReturnType<typeof createTestEvent>>;
  productId: number;
  slug: string;
};

/** A merchant selling 200 burgers, 200 places of one event date and 200 units of one product. */
async function stockedMerchant(name: string): Promise<Stock> {
  const merchant = await seedMerchant(database.db, name);
  const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId, burgerQuantity: 200 });
  const event = await createTestEvent(database.db, {
    merchantId: merchant.merchantId,
    price: 5000,
    quantity: 200,
    dates: ["2030-12-20"],
  });
  const { products } = await createTestShop(database.db, {
    merchantId: merchant.merchantId,
    products: [{ slug: `attar-${name.toLowerCase()}`, name_en: "Attar", name_ar: "عطر", price: 2500, inventory: 200 }],
  });
  return { merchant, menu, event, productId: products[0].id, slug: `attar-${name.toLowerCase()}` };
}

const foodOrder = (stock: Stock) => ({
  delivery_type: "pickup",
  branch: stock.menu.branchId,
  customer_name: "Sara Ali",
  customer_email: "sara@example.com",
  customer_phone: "50001234",
  gateway_code: "knet-sandbox",
  lines: [
    {
      menu_item: stock.menu.burgerId,
      category_id: stock.menu.categoryId,
      quantity: 1,
      size: stock.menu.smallId,
      add_ons: [],
      options: { [String(stock.menu.groupId)]: stock.menu.friesId },
    },
  ],
});
const booking = (stock: Stock) => ({
  event: stock.event.slug,
  ticket: stock.event.ticketId,
  event_date: "2030-12-20",
  quantity: 2,
  email: "guest@example.com",
  customer_first_name: "Sara",
  customer_last_name: "Ali",
  gateway_code: "knet-sandbox",
  extra: {},
});
const shopOrder = (stock: Stock) => ({
  merchant: stock.merchant.merchantId,
  items: [{ slug: stock.slug, quantity: 1 }],
  customer_name: "Noura",
  customer_email: "noura@example.com",
  gateway_code: "knet-sandbox",
});

/** One checkout in each section from `ip`: the three transactions to pay. */
async function checkOutEverywhere(stock: Stock, ip: string) {
  const food = await app.request(FOOD, { json: foodOrder(stock), ip });
  const event = await app.request(EVENT, { json: booking(stock), ip });
  const shop = await app.request(SHOP, { json: shopOrder(stock), ip });
  return { food, event, shop };
}

const payIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
async function transactionsOf(responses: Awaited<ReturnType<typeof checkOutEverywhere>>) {
  expect([responses.food.status, responses.event.status, responses.shop.status]).toEqual([201, 201, 201]);
  const food = (await responses.food.json()) as { checkout_url: string };
  const event = (await responses.event.json()) as { checkout_url: string };
  const shop = (await responses.shop.json()) as { transaction_id: string };
  return [payIdOf(food.checkout_url), payIdOf(event.checkout_url), shop.transaction_id];
}

async function stockLeft(stock: Stock) {
  const burger = await database.db
    .selectFrom("food_items")
    .select("quantity")
    .where("id", "=", stock.menu.burgerId)
    .executeTakeFirstOrThrow();
  const places = await database.db
    .selectFrom("event_ticket_dates")
    .select("taken")
    .where("ticket_id", "=", stock.event.ticketId)
    .executeTakeFirstOrThrow();
  return {
    portions: burger.quantity,
    placesTaken: places.taken,
    units: await inventoryOf(database.db, stock.productId),
  };
}

const sweep = async () => {
  await expireFoodOrders(database.db);
  await releaseAllExpiredHolds(database.db);
  await expireCatalogueOrders(database.db);
};

const payWithKnet = (transactionId: string, plugin: string, token: string) =>
  startAttempt(database.db, {
    transactionId,
    gatewayCode: "knet-sandbox",
    submissionToken: token,
    lang: "en",
    addresses: ADDRESSES,
    plugins: [plugin],
  });
const PLUGINS = ["food_ordering", "event", "catalogue"];

/** What the merchant's pages say is sold and held: the menu's dish, the events list, the products list. */
async function merchantSees(stock: Stock) {
  const cookie = await app.signIn(stock.merchant.admin.username, DEMO_PASSWORD);
  const read = async (path: string) => {
    const response = await app.request(path, { cookie });
    expect(response.status).toBe(200);
    return (await response.text()).replace(/<!-- -->/g, "");
  };
  return {
    menu: await read("/en/food-ordering/menu"),
    events: await read("/en/event/events"),
    products: await read("/en/catalogue/products"),
  };
}

describe("a checkout nobody pays", () => {
  it("50 buyers from 50 addresses who never pay keep nothing held past the short hold; a buyer who reached the gateway keeps theirs", async () => {
    const stock = await stockedMerchant("Crowd");
    for (let buyer = 0; buyer < 50; buyer++)
      await transactionsOf(await checkOutEverywhere(stock, `198.18.7.${buyer + 1}`));
    const patient = await transactionsOf(await checkOutEverywhere(stock, "198.18.9.1"));
    expect(await stockLeft(stock)).toEqual({ portions: 149, placesTaken: 102, units: 149 });
    const before = await merchantSees(stock);
    expect(before.menu).toContain("Sold 0 · Held 51");
    expect(before.events).toContain("Sold 0 · Held 102");
    expect(before.products).toContain("Sold 0 · Held 51");

    // The patient buyer reaches the gateway's page in time: the full payment hold applies to them.
    for (const [index, transactionId] of patient.entries())
      expect((await payWithKnet(transactionId, PLUGINS[index], `patient-${index}`)).ok).toBe(true);
    advanceClock(UNPAID_HOLD_MS + 1_000);
    await sweep();
    expect(await stockLeft(stock)).toEqual({ portions: 199, placesTaken: 2, units: 199 });
    const after = await merchantSees(stock);
    expect(after.menu).toContain("Sold 0 · Held 1");
    expect(after.events).toContain("Sold 0 · Held 2");
    expect(after.products).toContain("Sold 0 · Held 1");
  });

  it("a payment started after the short hold ended is refused with the pay page's message and takes nothing", async () => {
    const stock = await stockedMerchant("Late");
    const late = await transactionsOf(await checkOutEverywhere(stock, "198.18.10.1"));
    advanceClock(UNPAID_HOLD_MS + 1_000);
    await sweep();
    for (const [index, transactionId] of late.entries()) {
      expect(await payWithKnet(transactionId, PLUGINS[index], `late-${index}`)).toEqual({
        ok: false,
        error: "pay.errors.expired_retry",
      });
      expect(
        await database.db
          .selectFrom("payment_attempts")
          .select("id")
          .where("transaction_id", "=", transactionId)
          .execute(),
      ).toEqual([]);
    }
    expect(await stockLeft(stock)).toEqual({ portions: 200, placesTaken: 0, units: 200 });
  });
});

describe("one address's unpaid checkouts", () => {
  it(`one address holds at most ${MAX_UNPAID_CHECKOUTS} unpaid checkouts of a merchant in each section; the next is refused on the API, changing nothing`, async () => {
    const stock = await stockedMerchant("Capped");
    for (let checkout = 0; checkout < MAX_UNPAID_CHECKOUTS; checkout++)
      await transactionsOf(await checkOutEverywhere(stock, "198.18.11.1"));
    const held = await stockLeft(stock);
    const orders = await database.db
      .selectFrom("transactions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("merchant_id", "=", stock.merchant.merchantId)
      .executeTakeFirstOrThrow();
    const refused = await checkOutEverywhere(stock, "198.18.11.1");
    expect([refused.food.status, refused.event.status, refused.shop.status]).toEqual([400, 400, 400]);
    expect(JSON.stringify(await refused.food.json())).toContain(
      `You already have ${MAX_UNPAID_CHECKOUTS} orders waiting for payment here`,
    );
    expect(JSON.stringify(await refused.event.json())).toContain(
      `You already have ${MAX_UNPAID_CHECKOUTS} bookings waiting for payment here`,
    );
    expect(JSON.stringify(await refused.shop.json())).toContain(
      `You already have ${MAX_UNPAID_CHECKOUTS} orders waiting for payment here`,
    );
    expect(await stockLeft(stock)).toEqual(held);
    const after = await database.db
      .selectFrom("transactions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("merchant_id", "=", stock.merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(orders.count));
    // In Arabic too, and another address is not held back by this one.
    const arabic = await app.request(`${SHOP}?lang=ar`, { json: shopOrder(stock), ip: "198.18.11.1" });
    expect(JSON.stringify(await arabic.json())).toContain("بانتظار الدفع");
    await transactionsOf(await checkOutEverywhere(stock, "198.18.11.2"));
    // Once the short hold has ended them, the address may check out again.
    advanceClock(UNPAID_HOLD_MS + 1_000);
    await sweep();
    await transactionsOf(await checkOutEverywhere(stock, "198.18.11.1"));
  });

  it("counts an IPv6 caller by its /64: walking through one's own block buys no more unpaid checkouts", async () => {
    const stock = await stockedMerchant("Block");
    for (let checkout = 0; checkout < MAX_UNPAID_CHECKOUTS; checkout++)
      await transactionsOf(await checkOutEverywhere(stock, `2001:db8:7:1::${checkout + 1}`));
    const refused = await checkOutEverywhere(stock, "2001:db8:7:1:ffff:ffff:ffff:ffff");
    expect([refused.food.status, refused.event.status, refused.shop.status]).toEqual([400, 400, 400]);
    // The next /64 is another household.
    await transactionsOf(await checkOutEverywhere(stock, "2001:db8:7:2::1"));
  });

  it("the event's register page refuses the next unpaid booking with the same words", async () => {
    const stock = await stockedMerchant("Paged");
    for (let checkout = 0; checkout < MAX_UNPAID_CHECKOUTS; checkout++)
      expect((await app.request(EVENT, { json: booking(stock), ip: "198.18.12.1" })).status).toBe(201);
    const taken = (await stockLeft(stock)).placesTaken;
    const form = {
      ticket: String(stock.event.ticketId),
      event_date: "2030-12-20",
      quantity: "1",
      email: "guest@example.com",
      customer_first_name: "Sara",
      customer_last_name: "Ali",
      gateway_code: "knet-sandbox",
      accept_terms: "on",
    };
    const page = await app.request(`/en/events/register/${stock.event.slug}`, { form, ip: "198.18.12.1" });
    expect(page.status).toBe(400);
    expect((await page.text()).replace(/<!-- -->/g, "")).toContain(
      `You already have ${MAX_UNPAID_CHECKOUTS} bookings waiting for payment here`,
    );
    expect((await stockLeft(stock)).placesTaken).toBe(taken);
  });
});
