import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { createTestShop, inventoryOf } from "../../../../tests/support/cshop-fixtures";
import { wirePlatform } from "~/boot/wiring.server";
import { writeTransaction } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import type { TransactionRow } from "~/domain/transactions/list.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { orderDetails, serializeOrder } from "../presentation/transaction-details.server";
import { CheckoutSchema } from "./checkout-schema.server";
import { MAX_HELD_PER_ADDRESS, placeOrder } from "./checkout.server";
import { expireUnpaidOrders } from "./orders.server";

// How an order's reservation lives and ends: only units checkout took are given back, a failed
// attempt keeps them, the same cart checking out again ends its earlier order in the same write, an
// order must cost something, one address cannot hold a whole shop, and staff read the order's store
// and status on its transaction. The races below run for real on Postgres (row locks, each writer on
// its own connection); SQLite serialises its writers, so there they check the outcome is the same.

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Holds");
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

let buyers = 0;
function checkout(
  items: { slug: string; quantity: number }[],
  extra: Record<string, unknown> = {},
  options: {
    cartToken?: string;
    previousOrder?: string | null;
    clientAddress?: string | null;
    merchantId?: number;
  } = {},
) {
  buyers += 1;
  return placeOrder(database.db, {
    merchantId: options.merchantId ?? shop.merchantId,
    request: CheckoutSchema.parse({
      items,
      customer_name: `Buyer ${buyers}`,
      customer_email: `buyer${buyers}@example.com`,
      gateway_code: "knet-sandbox",
      ...extra,
    }),
    lang: "en",
    baseUrl: "http://localhost",
    cartToken: options.cartToken,
    previousOrder: options.previousOrder,
    clientAddress: options.clientAddress,
  });
}

async function placed(...args: Parameters<typeof checkout>) {
  const outcome = await checkout(...args);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.order;
}

const orderOf = (number: string) =>
  database.db.selectFrom("catalogue_orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
const setInventory = (productId: number, inventory: number | null) =>
  database.db.updateTable("catalogue_products").set({ inventory }).where("id", "=", productId).execute();
const transactionRow = async (id: string) =>
  (await database.db
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow()) as unknown as TransactionRow;

function pay(transactionId: string, attemptId = `attempt-${transactionId}`) {
  return writeTransaction(database.db, (trx) =>
    transitionTransaction(trx, transactionId, "paid", { kind: "payment", attemptId }),
  );
}
function failAttempt(transactionId: string) {
  return writeTransaction(database.db, (trx) =>
    transitionTransaction(trx, transactionId, "attempted", {
      kind: "attempt_failed",
      attemptId: `failed-${transactionId}`,
    }),
  );
}
function expireNow(transactionId: string) {
  return writeTransaction(database.db, (trx) =>
    transitionTransaction(
      trx,
      transactionId,
      "expired",
      { kind: "expired" },
      { from: ["created", "pending", "attempted"] },
    ),
  );
}
async function afterHold<T>(work: () => Promise<T>) {
  advanceClock(16 * 60_000);
  try {
    return await work();
  } finally {
    resetClock();
  }
}

describe("giving back only the units checkout took", () => {
  it("creates no stock when an unlimited product gets a number while an order holds it, and the hold expires", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1000, inventory: null }],
    });
    const order = await placed([{ slug: products[0].slug, quantity: 3 }]);
    await setInventory(products[0].id, 5);
    await afterHold(() => expireUnpaidOrders(database.db));
    expect(await orderOf(order.number)).toMatchObject({ status: "canceled", holds_stock: 0 });
    expect(await inventoryOf(database.db, products[0].id)).toBe(5);
  });

  it("gives back a limited product's units even when the merchant changed the number meanwhile", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [
        { price: 1000, inventory: 5 },
        { price: 500, inventory: null },
      ],
    });
    const order = await placed([
      { slug: products[0].slug, quantity: 2 },
      { slug: products[1].slug, quantity: 4 },
    ]);
    const lines = await database.db
      .selectFrom("catalogue_order_lines")
      .select(["product_id", "reserved"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(lines).toEqual([
      { product_id: products[0].id, reserved: 1 },
      { product_id: products[1].id, reserved: 0 },
    ]);
    await setInventory(products[0].id, 10);
    await setInventory(products[1].id, 7);
    await afterHold(() => expireUnpaidOrders(database.db));
    expect(await inventoryOf(database.db, products[0].id)).toBe(12);
    expect(await inventoryOf(database.db, products[1].id)).toBe(7);
  });

  it("takes again, for a payment completing after the hold ended, only what checkout took", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [
        { price: 1000, inventory: null },
        { price: 2000, inventory: 3 },
      ],
    });
    const order = await placed([
      { slug: products[0].slug, quantity: 2 },
      { slug: products[1].slug, quantity: 1 },
    ]);
    await afterHold(() => expireUnpaidOrders(database.db));
    expect(await inventoryOf(database.db, products[1].id)).toBe(3);
    // The unlimited product now has 1 left: the order never took any of it, so it takes none now.
    await setInventory(products[0].id, 1);
    expect((await pay(order.transactionId)).ok).toBe(true);
    expect(await orderOf(order.number)).toMatchObject({ status: "paid", holds_stock: 1 });
    expect(await inventoryOf(database.db, products[0].id)).toBe(1);
    expect(await inventoryOf(database.db, products[1].id)).toBe(2);
  });
});

describe("failed attempts and the sweep", () => {
  it("keeps the hold through a failed attempt and gives the units back once when the link expires, whoever expires it at once", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 3000, inventory: 4 }],
      discount: { amount: 1000, max_uses: 5 },
    });
    const order = await placed([{ slug: products[0].slug, quantity: 3 }], { discount_code: discountCode });
    expect((await failAttempt(order.transactionId)).ok).toBe(true);
    expect(await inventoryOf(database.db, products[0].id)).toBe(1);
    expect(await orderOf(order.number)).toMatchObject({ status: "pending_payment", holds_stock: 1 });
    // Two sweeps and the pay page opened late all expire it at once: the units come back once.
    await afterHold(() =>
      Promise.all([
        expireUnpaidOrders(database.db),
        expireUnpaidOrders(database.db),
        expireNow(order.transactionId).catch(() => null),
      ]),
    );
    expect(await inventoryOf(database.db, products[0].id)).toBe(4);
    expect(await orderOf(order.number)).toMatchObject({ status: "canceled", holds_stock: 0 });
    const used = await database.db
      .selectFrom("offer_codes")
      .select("used")
      .where("code", "=", discountCode!)
      .executeTakeFirstOrThrow();
    expect(used.used).toBe(0);
  });

  it("settles an order exactly once when its payment and the sweep come at once: paid, its units kept", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 3000, inventory: 6 }],
    });
    const orders = [
      await placed([{ slug: products[0].slug, quantity: 2 }]),
      await placed([{ slug: products[0].slug, quantity: 2 }]),
      await placed([{ slug: products[0].slug, quantity: 2 }]),
    ];
    await afterHold(() =>
      Promise.all([expireUnpaidOrders(database.db), ...orders.map((order) => pay(order.transactionId))]),
    );
    // Whether the sweep or the payment came first, each paid order holds its units, once.
    for (const order of orders) expect(await orderOf(order.number)).toMatchObject({ status: "paid", holds_stock: 1 });
    expect(await inventoryOf(database.db, products[0].id)).toBe(0);
  });
});

describe("the same cart checking out again", () => {
  it("counts its own hold as its own: 5 left, 3 checked out, the same 3 again ends the first order without holding twice", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1000, inventory: 5 }],
    });
    const first = await placed([{ slug: products[0].slug, quantity: 3 }], {}, { cartToken: "cart-again-1" });
    expect(await inventoryOf(database.db, products[0].id)).toBe(2);
    const second = await placed(
      [{ slug: products[0].slug, quantity: 3 }],
      {},
      { cartToken: "cart-again-1", previousOrder: first.number },
    );
    expect(await orderOf(first.number)).toMatchObject({ status: "canceled", holds_stock: 0 });
    expect(await orderOf(second.number)).toMatchObject({ status: "pending_payment", holds_stock: 1 });
    expect(await inventoryOf(database.db, products[0].id)).toBe(2);
    const firstTransaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", first.transactionId)
      .executeTakeFirstOrThrow();
    expect(firstTransaction.state).toBe("expired");
  });

  it("places one order when the same cart checks out twice at once, and never holds more than is left", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1000, inventory: 5 }],
    });
    const first = await placed([{ slug: products[0].slug, quantity: 3 }], {}, { cartToken: "cart-twice" });
    const outcomes = await Promise.all(
      [1, 2].map(() =>
        checkout(
          [{ slug: products[0].slug, quantity: 3 }],
          {},
          { cartToken: "cart-twice", previousOrder: first.number },
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.find((outcome) => !outcome.ok)).toEqual({
      ok: false,
      problems: { "items.0.quantity": { code: "catalogue_public.errors.only_left", params: { left: 2 } } },
    });
    expect(await inventoryOf(database.db, products[0].id)).toBe(2);
    const holding = await database.db
      .selectFrom("catalogue_orders")
      .innerJoin("catalogue_order_lines", "catalogue_order_lines.order_id", "catalogue_orders.id")
      .select("catalogue_orders.number")
      .where("catalogue_order_lines.product_id", "=", products[0].id)
      .where("catalogue_orders.holds_stock", "=", 1)
      .execute();
    expect(holding).toHaveLength(1);
  });
});

describe("what an order may be", () => {
  it("refuses an order totalling 0, under the discount code or the lines, taking nothing", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [
        { price: 2000, inventory: 5 },
        { price: 0, inventory: 5 },
      ],
      discount: { amount: 5000, discount_type: "fixed" },
    });
    expect(await checkout([{ slug: products[0].slug, quantity: 2 }], { discount_code: discountCode })).toEqual({
      ok: false,
      problems: { discount_code: { code: "catalogue_public.errors.discount_whole_total" } },
    });
    const whole = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [],
      discount: { amount: 10000 },
    });
    expect(await checkout([{ slug: products[0].slug, quantity: 1 }], { discount_code: whole.discountCode })).toEqual({
      ok: false,
      problems: { discount_code: { code: "catalogue_public.errors.discount_whole_total" } },
    });
    expect(await checkout([{ slug: products[1].slug, quantity: 1 }])).toEqual({
      ok: false,
      problems: { items: { code: "catalogue_public.errors.zero_total" } },
    });
    expect(await inventoryOf(database.db, products[0].id)).toBe(5);
    expect(await inventoryOf(database.db, products[1].id)).toBe(5);
    const used = await database.db
      .selectFrom("offer_codes")
      .select("used")
      .where("code", "in", [discountCode!, whole.discountCode!])
      .execute();
    expect(used.map((row) => row.used)).toEqual([0, 0]);
  });

  it("holds at most 20 units of a product in a line", async () => {
    expect(
      CheckoutSchema.safeParse({
        items: [{ slug: "a", quantity: 20 }],
        customer_name: "A",
        customer_email: "a@example.com",
        gateway_code: "x",
      }).success,
    ).toBe(true);
    const refused = CheckoutSchema.safeParse({
      items: [{ slug: "a", quantity: 21 }],
      customer_name: "A",
      customer_email: "a@example.com",
      gateway_code: "x",
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["items", 0, "quantity"],
      message: "catalogue_public.errors.line_quantity",
    });
  });

  it("lets one address hold at most MAX_HELD_PER_ADDRESS units of limited stock at once; others still buy", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [
        { price: 1000, inventory: 500 },
        { price: 1000, inventory: null },
        { price: 1000, inventory: 500 },
      ],
    });
    const hoarder = "192.0.2.10";
    // Two orders (fewer than MAX_UNPAID_CHECKOUTS) holding MAX_HELD_PER_ADDRESS units between them.
    await placed(
      [
        { slug: products[0].slug, quantity: 20 },
        { slug: products[2].slug, quantity: 20 },
      ],
      {},
      { clientAddress: hoarder },
    );
    await placed([{ slug: products[0].slug, quantity: MAX_HELD_PER_ADDRESS - 40 }], {}, { clientAddress: hoarder });
    expect(await checkout([{ slug: products[0].slug, quantity: 1 }], {}, { clientAddress: hoarder })).toEqual({
      ok: false,
      problems: { items: { code: "catalogue_public.errors.too_many_held", params: { max: MAX_HELD_PER_ADDRESS } } },
    });
    // Unlimited products hold nothing; another address buys as usual.
    expect((await checkout([{ slug: products[1].slug, quantity: 20 }], {}, { clientAddress: hoarder })).ok).toBe(true);
    expect((await checkout([{ slug: products[0].slug, quantity: 1 }], {}, { clientAddress: "192.0.2.11" })).ok).toBe(
      true,
    );
    expect(await inventoryOf(database.db, products[0].id)).toBe(500 - (MAX_HELD_PER_ADDRESS - 20) - 1);
  });

  it("takes no checkout for a paused merchant", async () => {
    const paused = await seedMerchant(database.db, "Paused");
    const { products } = await createTestShop(database.db, {
      merchantId: paused.merchantId,
      products: [{ price: 1000, inventory: 5 }],
    });
    await database.db.updateTable("merchants").set({ is_active: 0 }).where("id", "=", paused.merchantId).execute();
    expect(await checkout([{ slug: products[0].slug, quantity: 1 }], {}, { merchantId: paused.merchantId })).toEqual({
      ok: false,
      problems: { non_field_errors: { code: "catalogue_public.errors.shop_not_found" } },
    });
    expect(await inventoryOf(database.db, products[0].id)).toBe(5);
  });
});

describe("what staff read on the order's transaction", () => {
  it("shows the store to collect from and the order's status, and says to refund a paid order canceled for lack of stock", async () => {
    const { products, storeId } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1500, inventory: 1 }],
      store: true,
    });
    const order = await placed([{ slug: products[0].slug, quantity: 1 }], { store: storeId });
    const waiting = orderDetails(await transactionRow(order.transactionId), "en");
    expect(waiting).toEqual(
      expect.arrayContaining([
        { name: "catalogue_order_status", label: "Order status", value: "Waiting for payment" },
        { name: "catalogue_store", label: "Store", value: expect.stringMatching(/^Store \d+ — Salmiya$/) },
      ]),
    );
    expect(orderDetails(await transactionRow(order.transactionId), "ar")).toEqual(
      expect.arrayContaining([
        { name: "catalogue_store", label: "المتجر", value: expect.stringMatching(/^متجر \d+ — السالمية$/) },
      ]),
    );
    // The hold ends, another customer buys the last unit, then the first payment completes.
    await afterHold(() => expireUnpaidOrders(database.db));
    await placed([{ slug: products[0].slug, quantity: 1 }]);
    expect((await pay(order.transactionId)).ok).toBe(true);
    const row = await transactionRow(order.transactionId);
    expect(orderDetails(row, "en")).toEqual(
      expect.arrayContaining([
        {
          name: "catalogue_order_status",
          label: "Order status",
          value: "Canceled: paid after its items were gone — refund the customer",
        },
      ]),
    );
    expect(serializeOrder(row)).toMatchObject({
      catalogue_order: {
        number: order.number,
        status: "canceled",
        paid_without_stock: true,
        store: { id: storeId, address_en: "Salmiya", address_ar: "السالمية" },
      },
    });
  });

  it("follows the order to paid", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1500, inventory: 3 }],
    });
    const order = await placed([{ slug: products[0].slug, quantity: 1 }]);
    expect((await pay(order.transactionId)).ok).toBe(true);
    const row = await transactionRow(order.transactionId);
    expect(orderDetails(row, "ar")).toEqual(
      expect.arrayContaining([{ name: "catalogue_order_status", label: "حالة الطلب", value: "مدفوع" }]),
    );
    expect(serializeOrder(row)).toMatchObject({
      catalogue_order: { status: "paid", paid_without_stock: false, store: null },
    });
  });
});
