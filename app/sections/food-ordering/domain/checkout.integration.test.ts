import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import type { DB } from "~/db/database.server";
import { wirePlatform } from "~/boot/wiring.server";
import { advanceClock, nowIso, resetClock } from "~/lib/clock.server";
import { CheckoutSchema } from "./checkout-schema";
import { placeOrder } from "./checkout.server";
import { writeTransaction } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { cancelOrder, changeOrderStatus, expireUnpaidOrders } from "./orders.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" };

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Food");
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

/** A branch open all day every day delivering to Salmiya, a category and an item with `quantity` portions (null: unlimited). */
async function makeMenu(
  db: DB,
  input: {
    quantity: number | null;
    price?: number;
    hours?: { opens: string; closes: string } | "never";
    catering?: { minPlates: number; serviceCharge: number };
  },
) {
  const at = nowIso();
  const branch = await db
    .insertInto("food_branches")
    .values({
      merchant_id: shop.merchantId,
      name_en: "Salmiya",
      name_ar: "السالمية",
      min_order: 1000,
      offers_catering: input.catering ? 1 : 0,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (let weekday = 1; weekday <= 7 && input.hours !== "never"; weekday++) {
    await db
      .insertInto("food_branch_hours")
      .values({
        branch_id: branch.id,
        weekday,
        opens: input.hours?.opens ?? "00:00",
        closes: input.hours?.closes ?? "24:00",
      })
      .execute();
  }
  const area = await db
    .insertInto("food_delivery_areas")
    .values({ merchant_id: shop.merchantId, branch_id: branch.id, area: "Salmiya", charge: 500, min_order: 2000 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto("food_categories")
    .values({
      merchant_id: shop.merchantId,
      name_en: "Grills",
      name_ar: "مشويات",
      is_catering: input.catering ? 1 : 0,
      min_plates: input.catering?.minPlates ?? 0,
      service_charge: input.catering?.serviceCharge ?? 0,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const item = await db
    .insertInto("food_items")
    .values({
      merchant_id: shop.merchantId,
      category_id: category.id,
      name_en: "Mixed grill",
      name_ar: "مشاوي مشكلة",
      price: input.price ?? 4500,
      quantity: input.quantity,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { branchId: branch.id, areaId: area.id, categoryId: category.id, itemId: item.id };
}

let phones = 0;
function order(menu: { branchId: number; areaId: number; itemId: number }, extra: Record<string, unknown> = {}) {
  const phone = `5${String(1000000 + ++phones).slice(-7)}`;
  return placeOrder(database.db, {
    request: CheckoutSchema.parse({
      delivery_type: "pickup",
      branch: menu.branchId,
      customer_name: "Fatima",
      customer_phone: phone,
      gateway_code: "knet-sandbox",
      lines: [{ menu_item: menu.itemId, quantity: 1 }],
      ...extra,
    }),
    lang: "en",
    baseUrl: "http://localhost",
    addresses,
  });
}

const portionsLeft = async (itemId: number) =>
  (await database.db.selectFrom("food_items").select("quantity").where("id", "=", itemId).executeTakeFirstOrThrow())
    .quantity;

describe("placing food orders", () => {
  it("sells exactly the last 5 portions to 20 customers ordering at once, naming the line to the others", async () => {
    const menu = await makeMenu(database.db, { quantity: 5 });
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => order(menu)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(5);
    for (const refused of outcomes.filter((outcome) => !outcome.ok)) {
      expect(refused).toMatchObject({
        ok: false,
        errors: { "lines.0.quantity": [expect.stringMatching(/^food\.errors\.(sold_out|only_left)$/)] },
      });
    }
    expect(await portionsLeft(menu.itemId)).toBe(0);
  });

  it("gives one discount for a single-use voucher to 20 customers using it at once", async () => {
    const menu = await makeMenu(database.db, { quantity: null, price: 10000 });
    await database.db
      .insertInto("offer_codes")
      .values({
        merchant_id: shop.merchantId,
        section: "food_ordering",
        code: "ONCE",
        code_lc: "once",
        discount_type: "percentage",
        amount: 1000,
        max_uses: 1,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => order(menu, { voucher: "once" })));
    const discounted = outcomes.filter((outcome) => outcome.ok);
    expect(discounted).toHaveLength(1);
    expect(discounted[0]).toMatchObject({ ok: true, order: { total: "9.000" } });
    for (const refused of outcomes.filter((outcome) => !outcome.ok))
      expect(refused).toMatchObject({ errors: { voucher: ["food.errors.voucher_used_up"] } });
    const voucher = await database.db
      .selectFrom("offer_codes")
      .select("used")
      .where("code_lc", "=", "once")
      .executeTakeFirstOrThrow();
    expect(voucher.used).toBe(1);
  });

  it("gives portions and the voucher back when the payment time runs out, once", async () => {
    const menu = await makeMenu(database.db, { quantity: 3 });
    await database.db
      .insertInto("offer_codes")
      .values({
        merchant_id: shop.merchantId,
        section: "food_ordering",
        code: "BACK",
        code_lc: "back",
        discount_type: "fixed",
        amount: 500,
        max_uses: 1,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    const placed = await order(menu, { voucher: "BACK", lines: [{ menu_item: menu.itemId, quantity: 2 }] });
    expect(placed).toMatchObject({
      ok: true,
      order: { checkout_url: expect.stringContaining("/en/pay/"), status: "pending_payment" },
    });
    expect(await portionsLeft(menu.itemId)).toBe(1);
    advanceClock(16 * 60_000);
    expect(await expireUnpaidOrders(database.db)).toBeGreaterThanOrEqual(1);
    expect(await expireUnpaidOrders(database.db)).toBe(0);
    expect(await portionsLeft(menu.itemId)).toBe(3);
    const voucher = await database.db
      .selectFrom("offer_codes")
      .select("used")
      .where("code_lc", "=", "back")
      .executeTakeFirstOrThrow();
    expect(voucher.used).toBe(0);
    if (!placed.ok) throw new Error("refused");
    const row = await database.db
      .selectFrom("food_orders")
      .select("status")
      .where("id", "=", placed.order.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("canceled");
  });

  it("records cash on delivery at once as a new order, which moves along the kitchen's workflow and cancels with its portions back", async () => {
    const menu = await makeMenu(database.db, { quantity: 4 });
    const placed = await order(menu, {
      gateway_code: "cod",
      delivery_type: "delivery",
      delivery_area: menu.areaId,
      address: { area: "Salmiya", block: "10", street: "Salem Al-Mubarak", house_no: "5" },
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    expect(placed.order).toMatchObject({ checkout_url: null, status: "new", total: "5.000" });
    const actor = { ...shop.admin, superuser: true, permissions: [] } as never;
    expect(
      await changeOrderStatus(database.db, {
        merchantId: shop.merchantId,
        actor,
        id: placed.order.id,
        status: "ready",
        addresses,
      }),
    ).toMatchObject({ ok: false, code: "food.errors.status_not_allowed" });
    expect(
      await changeOrderStatus(database.db, {
        merchantId: shop.merchantId,
        actor,
        id: placed.order.id,
        status: "accepted",
        addresses,
      }),
    ).toMatchObject({ ok: true });
    expect(await portionsLeft(menu.itemId)).toBe(3);
    expect(
      await cancelOrder(database.db, { merchantId: shop.merchantId, actor, id: placed.order.id, addresses }),
    ).toMatchObject({ ok: true, status: "canceled" });
    expect(await portionsLeft(menu.itemId)).toBe(4);
    expect(
      await cancelOrder(database.db, { merchantId: shop.merchantId, actor, id: placed.order.id, addresses }),
    ).toMatchObject({ ok: false });
    expect(await portionsLeft(menu.itemId)).toBe(4);
  });

  it("refuses delivery outside the branch's areas, a closed branch, a minimum not reached and catering below its plates", async () => {
    const menu = await makeMenu(database.db, { quantity: null, price: 1500 });
    const other = await makeMenu(database.db, { quantity: null });
    expect(
      await order(menu, {
        delivery_type: "delivery",
        delivery_area: other.areaId,
        address: { area: "Salmiya", block: "1", street: "1", house_no: "1" },
        lines: [{ menu_item: menu.itemId, quantity: 2 }],
      }),
    ).toMatchObject({
      ok: false,
      errors: { delivery_area: ["food.errors.outside_area"] },
    });
    expect(
      await order(menu, {
        lines: [{ menu_item: menu.itemId, quantity: 1 }],
        delivery_type: "delivery",
        delivery_area: menu.areaId,
        address: { area: "Salmiya", block: "1", street: "1", house_no: "1" },
      }),
    ).toMatchObject({
      ok: false,
      errors: { lines: ["food.errors.minimum_order"] },
    });
    const closed = await makeMenu(database.db, { quantity: null, hours: "never" });
    expect(await order(closed, { lines: [{ menu_item: closed.itemId, quantity: 1 }] })).toMatchObject({
      ok: false,
      errors: { branch: ["food.errors.closed_now"] },
    });
    const catering = await makeMenu(database.db, {
      quantity: null,
      price: 2000,
      catering: { minPlates: 10, serviceCharge: 5000 },
    });
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    expect(
      await order(catering, {
        delivery_type: "catering",
        scheduled_for: soon,
        lines: [{ menu_item: catering.itemId, quantity: 5 }],
      }),
    ).toMatchObject({
      ok: false,
      errors: { lines: ["food.errors.catering_minimum"] },
      params: { minimum: 10, plates: 5 },
    });
    const enough = await order(catering, {
      delivery_type: "catering",
      scheduled_for: soon,
      lines: [{ menu_item: catering.itemId, quantity: 10 }],
    });
    expect(enough).toMatchObject({ ok: true, order: { total: "25.000" } });
  });

  it("a payment completing after the order's portions went back takes all of them again or none", async () => {
    const menu = await makeMenu(database.db, { quantity: 5 });
    const at = nowIso();
    const second = await database.db
      .insertInto("food_items")
      .values({
        merchant_id: shop.merchantId,
        category_id: menu.categoryId,
        name_en: "Machboos",
        name_ar: "مجبوس",
        price: 3000,
        quantity: 1,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const placed = await order(menu, {
      lines: [
        { menu_item: menu.itemId, quantity: 2 },
        { menu_item: second.id, quantity: 1 },
      ],
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    advanceClock(16 * 60_000);
    await expireUnpaidOrders(database.db);
    expect(await portionsLeft(menu.itemId)).toBe(5);
    // Someone else buys the last Machboos; then the first customer's payment (started in time) completes.
    expect((await order({ ...menu, itemId: second.id })).ok).toBe(true);
    const { transaction_id } = await database.db
      .selectFrom("food_orders")
      .select("transaction_id")
      .where("id", "=", placed.order.id)
      .executeTakeFirstOrThrow();
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, transaction_id!, "paid", { kind: "payment", attemptId: "late" }),
    );
    expect(await portionsLeft(menu.itemId)).toBe(5);
    expect(await portionsLeft(second.id)).toBe(0);
    const row = await database.db
      .selectFrom("food_orders")
      .select(["status", "holds_stock"])
      .where("id", "=", placed.order.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "canceled", holds_stock: 0 });
    const flagged = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("object_type", "=", "food_order")
      .where("object_id", "=", String(placed.order.id))
      .execute();
    expect(flagged.map((entry) => entry.action)).toContain("food_order_paid_after_cancel");
  });
});
