import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { createTestShop, inventoryOf } from "../../../../tests/support/cshop-fixtures";
import { wirePlatform } from "~/boot/wiring.server";
import { writeTransaction } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { catalogue } from "../section";
import { emptyCart, loadCart, newCartToken, saveCart } from "./cart.server";
import { CheckoutSchema } from "./checkout-schema.server";
import { placeOrder } from "./checkout.server";
import { expireUnpaidOrders } from "./orders.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Shop");
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

let buyers = 0;
function checkout(
  items: { slug: string; quantity: number }[],
  extra: Record<string, unknown> = {},
  options: { cartToken?: string } = {},
) {
  buyers += 1;
  return placeOrder(database.db, {
    merchantId: shop.merchantId,
    request: CheckoutSchema.parse({
      items,
      customer_name: `Buyer ${buyers}`,
      customer_email: `buyer${buyers}@example.com`,
      customer_phone: "50001234",
      gateway_code: "knet-sandbox",
      ...extra,
    }),
    lang: "en",
    baseUrl: "http://localhost",
    cartToken: options.cartToken,
  });
}

const orderOf = (number: string) =>
  database.db.selectFrom("catalogue_orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
const discountUses = async (code: string) =>
  (
    await database.db
      .selectFrom("offer_codes")
      .select("used")
      .where("code_lc", "=", code.toLowerCase())
      .executeTakeFirstOrThrow()
  ).used;

function pay(transactionId: string) {
  return writeTransaction(database.db, (trx) =>
    transitionTransaction(trx, transactionId, "paid", { kind: "payment", attemptId: `attempt-${transactionId}` }),
  );
}

describe("checking out the catalogue", () => {
  it("sells exactly the last 10 units to 30 customers checking out at once, naming the short line to the others", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [
        { price: 1000, inventory: null },
        { price: 2500, inventory: 10 },
      ],
    });
    const [unlimited, scarce] = products;
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () =>
        checkout([
          { slug: unlimited.slug, quantity: 1 },
          { slug: scarce.slug, quantity: 1 },
        ]),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(10);
    for (const refused of outcomes.filter((outcome) => !outcome.ok)) {
      expect(refused).toEqual({
        ok: false,
        problems: { "items.1.quantity": { code: "catalogue_public.errors.sold_out" } },
      });
    }
    expect(await inventoryOf(database.db, scarce.id)).toBe(0);
    expect(await inventoryOf(database.db, unlimited.id)).toBeNull();
    const orders = await database.db
      .selectFrom("catalogue_orders")
      .innerJoin("catalogue_order_lines", "catalogue_order_lines.order_id", "catalogue_orders.id")
      .select(["catalogue_orders.id"])
      .where("catalogue_order_lines.product_id", "=", scarce.id)
      .execute();
    expect(orders).toHaveLength(10);
  });

  it("tells a customer asking for more than is left how many are left", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1000, inventory: 3 }],
    });
    const refused = await checkout([
      { slug: products[0].slug, quantity: 2 },
      { slug: products[0].slug, quantity: 2 },
    ]);
    expect(refused).toEqual({
      ok: false,
      problems: {
        "items.0.quantity": { code: "catalogue_public.errors.only_left", params: { left: 3 } },
        "items.1.quantity": { code: "catalogue_public.errors.only_left", params: { left: 3 } },
      },
    });
    expect(await inventoryOf(database.db, products[0].id)).toBe(3);
  });

  it("prices from the shop: a price in the request is ignored, the discounted price and the code apply", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 5000, discounted_price: 4000, inventory: 5 }],
      discount: { amount: 1000 },
    });
    const placed = await checkout([{ slug: products[0].slug, quantity: 2, price: "0.001", unit_price: 1 } as never], {
      discount_code: discountCode!.toLowerCase(),
      total: "0.001",
      amount: 1,
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.problems));
    // 2 × 4.000 = 8.000, 10 % off = 7.200.
    expect(placed.order.total).toBe(7200);
    const order = await orderOf(placed.order.number);
    expect(order).toMatchObject({
      subtotal: 8000,
      discount: 800,
      total: 7200,
      status: "pending_payment",
      holds_stock: 1,
    });
    const transaction = await database.db
      .selectFrom("transactions")
      .select(["amount", "plugin", "state"])
      .where("id", "=", placed.order.transactionId)
      .executeTakeFirstOrThrow();
    expect(transaction).toEqual({ amount: 7200, plugin: "catalogue", state: "created" });
    expect(placed.order.checkoutUrl).toBe(`http://localhost/en/pay/${placed.order.transactionId}`);
  });

  it("never uses a discount code more often than allowed, whoever checks out at once", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 10000, inventory: null }],
      discount: { amount: 500, discount_type: "fixed", max_uses: 3 },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, () =>
        checkout([{ slug: products[0].slug, quantity: 1 }], { discount_code: discountCode }),
      ),
    );
    const discounted = outcomes.filter((outcome) => outcome.ok);
    expect(discounted).toHaveLength(3);
    for (const placed of discounted) expect(placed.ok && placed.order.total).toBe(9500);
    for (const refused of outcomes.filter((outcome) => !outcome.ok))
      expect(refused).toEqual({
        ok: false,
        problems: { discount_code: { code: "catalogue_public.errors.discount_used_up" } },
      });
    expect(await discountUses(discountCode!)).toBe(3);
  });

  it("gives the units and the discount use back once when the hold expires", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 3000, inventory: 4 }],
      discount: { amount: 1000, max_uses: 1 },
    });
    const placed = await checkout([{ slug: products[0].slug, quantity: 3 }], { discount_code: discountCode });
    if (!placed.ok) throw new Error("refused");
    expect(await inventoryOf(database.db, products[0].id)).toBe(1);
    expect(await discountUses(discountCode!)).toBe(1);
    advanceClock(16 * 60_000);
    try {
      expect(await expireUnpaidOrders(database.db)).toBeGreaterThanOrEqual(1);
      expect(await expireUnpaidOrders(database.db)).toBe(0);
    } finally {
      resetClock();
    }
    expect(await inventoryOf(database.db, products[0].id)).toBe(4);
    expect(await discountUses(discountCode!)).toBe(0);
    expect(await orderOf(placed.order.number)).toMatchObject({ status: "canceled", holds_stock: 0 });
    const transaction = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", placed.order.transactionId)
      .executeTakeFirstOrThrow();
    expect(transaction.state).toBe("expired");
  });

  it("keeps the units through a failed attempt (the link stays payable), and a retry that pays keeps them", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 3000, inventory: 2 }],
    });
    const placed = await checkout([{ slug: products[0].slug, quantity: 2 }]);
    if (!placed.ok) throw new Error("refused");
    expect(await inventoryOf(database.db, products[0].id)).toBe(0);
    const failed = await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, placed.order.transactionId, "attempted", {
        kind: "attempt_failed",
        attemptId: "failed-1",
      }),
    );
    expect(failed.ok).toBe(true);
    // Nobody else can buy the units while the customer may still retry.
    expect(await inventoryOf(database.db, products[0].id)).toBe(0);
    expect(await orderOf(placed.order.number)).toMatchObject({ status: "pending_payment", holds_stock: 1 });
    expect(await checkout([{ slug: products[0].slug, quantity: 1 }])).toEqual({
      ok: false,
      problems: { "items.0.quantity": { code: "catalogue_public.errors.sold_out" } },
    });
    expect((await pay(placed.order.transactionId)).ok).toBe(true);
    expect(await inventoryOf(database.db, products[0].id)).toBe(0);
    expect(await orderOf(placed.order.number)).toMatchObject({ status: "paid", holds_stock: 1 });
  });

  it("keeps a payment that completes after its hold expired and its units were sold, canceling the order and asking staff to refund it", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 3000, inventory: 1 }],
    });
    const first = await checkout([{ slug: products[0].slug, quantity: 1 }]);
    if (!first.ok) throw new Error("refused");
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, first.order.transactionId, "attempted", {
        kind: "attempt_failed",
        attemptId: "failed-2",
      }),
    );
    advanceClock(16 * 60_000);
    try {
      await expireUnpaidOrders(database.db);
    } finally {
      resetClock();
    }
    const second = await checkout([{ slug: products[0].slug, quantity: 1 }]);
    expect(second.ok).toBe(true);
    expect((await pay(first.order.transactionId)).ok).toBe(true);
    expect(await inventoryOf(database.db, products[0].id)).toBe(0);
    const order = await orderOf(first.order.number);
    expect(order.status).toBe("canceled");
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "description"])
      .where("object_type", "=", "catalogue_order")
      .where("object_id", "=", String(order.id))
      .execute();
    expect(audit.map((entry) => entry.action)).toContain("catalogue_order_paid_without_stock");
  });

  it("keeps the units of a paid order, and its payment empties the cart it was placed from", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 1500, inventory: 5 }],
    });
    const { token } = await newCartToken(database.db);
    const placed = await checkout([{ slug: products[0].slug, quantity: 2 }], {}, { cartToken: token });
    if (!placed.ok) throw new Error("refused");
    await saveCart(database.db, token, {
      ...emptyCart(shop.merchantId),
      lines: [{ slug: products[0].slug, quantity: 2 }],
      order: placed.order.number,
    });
    expect((await pay(placed.order.transactionId)).ok).toBe(true);
    expect(await inventoryOf(database.db, products[0].id)).toBe(3);
    expect(await orderOf(placed.order.number)).toMatchObject({ status: "paid", holds_stock: 1 });
    expect(await loadCart(database.db, token)).toMatchObject({ lines: [], order: placed.order.number });
    // The sweep leaves a paid order alone.
    advanceClock(60 * 60_000);
    try {
      await expireUnpaidOrders(database.db);
    } finally {
      resetClock();
    }
    expect(await inventoryOf(database.db, products[0].id)).toBe(3);
    expect(await orderOf(placed.order.number)).toMatchObject({ status: "paid", holds_stock: 1 });
  });

  it("refuses an unknown product, a bad email and a payment method the shop does not take, naming each field", async () => {
    const refused = await placeOrder(database.db, {
      merchantId: shop.merchantId,
      request: CheckoutSchema.parse({
        items: [{ slug: "no-such-thing", quantity: 1 }],
        customer_name: "A",
        customer_email: "a@example.com",
        customer_phone: "123",
        gateway_code: "cod",
      }),
      lang: "en",
      baseUrl: "http://localhost",
    });
    expect(refused).toEqual({
      ok: false,
      problems: {
        "items.0.slug": { code: "catalogue_public.errors.unknown_product" },
        customer_phone: { code: "errors.invalid_phone" },
        gateway_code: { code: "catalogue_public.errors.gateway" },
      },
    });
    expect(
      CheckoutSchema.safeParse({ items: [], customer_name: "", customer_email: "nope", gateway_code: "" }).success,
    ).toBe(false);
  });
});

describe("the demo shop", () => {
  it("is made by the section's demo job once: products with stock, a store, WELCOME10 and the banner shown", async () => {
    const demo = await seedMerchant(database.db, "DemoShop");
    const { sectionServer } = await catalogue.server();
    const job = sectionServer.jobs![catalogue.demoJob];
    await job(database.db, { merchantId: demo.merchantId, userId: demo.admin.id });
    await job(database.db, { merchantId: demo.merchantId, userId: demo.admin.id });
    const products = await database.db
      .selectFrom("catalogue_products")
      .select(["slug", "inventory", "name_ar"])
      .where("merchant_id", "=", demo.merchantId)
      .execute();
    expect(products.length).toBeGreaterThanOrEqual(8);
    expect(products.some((product) => product.inventory === null)).toBe(true);
    expect(products.some((product) => product.inventory !== null && product.inventory > 0)).toBe(true);
    expect(products.every((product) => product.name_ar.trim() !== "")).toBe(true);
    const stores = await database.db
      .selectFrom("catalogue_stores")
      .select("id")
      .where("merchant_id", "=", demo.merchantId)
      .execute();
    expect(stores).toHaveLength(1);
    const discount = await database.db
      .selectFrom("offer_codes")
      .select(["code", "amount"])
      .where("merchant_id", "=", demo.merchantId)
      .executeTakeFirstOrThrow();
    expect(discount).toEqual({ code: "WELCOME10", amount: 1000 });
    const placed = await placeOrder(database.db, {
      merchantId: demo.merchantId,
      request: CheckoutSchema.parse({
        items: [{ slug: "saffron-30g", quantity: 1 }],
        discount_code: "welcome10",
        customer_name: "Noura",
        customer_email: "noura@example.com",
        gateway_code: "knet-sandbox",
      }),
      lang: "ar",
      baseUrl: "http://localhost",
    });
    // 9.750, 10 % off (0.975).
    expect(placed.ok && placed.order.total).toBe(8775);
  });
});
