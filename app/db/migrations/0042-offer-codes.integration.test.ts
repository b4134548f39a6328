import { afterAll, describe, expect, it } from "vitest";
import { insertCatalogueOrder } from "../../../tests/support/cadmin-fixtures";
import { createTestShop } from "../../../tests/support/cshop-fixtures";
import { seedMerchant } from "../../../tests/support/fixtures";
import { insertFoodOrder, insertOrdersMenu } from "../../../tests/support/food-fixtures-forders";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { migrateToLatest } from "../migrate.server";

let database: TestDatabase;
afterAll(async () => database?.destroy());

describe("migration 0042", () => {
  it("copies the vouchers and the discount codes into offer codes, with their uses, and points the orders at the copies", async () => {
    database = await createTestDatabase({ upTo: "0041-audit-request-id" });
    const db = database.db;
    const { merchantId } = await seedMerchant(db, "Codes");
    const at = new Date().toISOString();
    const code = (value: string, extra: Record<string, unknown> = {}) => ({
      merchant_id: merchantId,
      code: value,
      code_lc: value.toLowerCase(),
      discount_type: "percentage" as const,
      amount: 1000,
      is_active: 1,
      created_at: at,
      updated_at: at,
      ...extra,
    });
    // The same code in both sections, and ids that overlap between the two tables.
    const vouchers = [];
    for (const values of [
      code("WELCOME10", { max_uses: 5, used: 2, max_uses_per_customer: 1, min_total: 3000 }),
      code("Fixed5", { discount_type: "fixed", amount: 5000, valid_to: "2099-12-31T20:59:59.999Z", is_active: 0 }),
    ])
      vouchers.push(await db.insertInto("food_vouchers").values(values).returning("id").executeTakeFirstOrThrow());
    const discounts = [];
    for (const values of [code("WELCOME10", { max_uses: 9, used: 4 }), code("EID", { amount: 1250 })])
      discounts.push(await db.insertInto("catalogue_discounts").values(values).returning("id").executeTakeFirstOrThrow());
    const menu = await insertOrdersMenu(db, merchantId);
    const foodOrder = await insertFoodOrder(db, merchantId, menu);
    const plainFoodOrder = await insertFoodOrder(db, merchantId, menu);
    await db.updateTable("food_orders").set({ voucher_id: vouchers[0].id }).where("id", "=", foodOrder.id).execute();
    const shop = await createTestShop(db, { merchantId, products: [{ price: 5000 }] });
    const catalogueOrder = await insertCatalogueOrder(db, merchantId, { productId: shop.products[0].id });
    await db
      .updateTable("catalogue_orders")
      .set({ discount_id: discounts[1].id })
      .where("id", "=", catalogueOrder)
      .execute();

    await migrateToLatest(db);

    const copies = await db
      .selectFrom("offer_codes")
      .select([
        "id",
        "section",
        "code",
        "code_lc",
        "discount_type",
        "amount",
        "valid_to",
        "min_total",
        "max_uses",
        "max_uses_per_customer",
        "used",
        "is_active",
        "copied_from",
      ])
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute();
    expect(copies.map(({ id: _id, ...copy }) => copy)).toEqual([
      {
        section: "food_ordering",
        code: "WELCOME10",
        code_lc: "welcome10",
        discount_type: "percentage",
        amount: 1000,
        valid_to: null,
        min_total: 3000,
        max_uses: 5,
        max_uses_per_customer: 1,
        used: 2,
        is_active: 1,
        copied_from: vouchers[0].id,
      },
      {
        section: "food_ordering",
        code: "Fixed5",
        code_lc: "fixed5",
        discount_type: "fixed",
        amount: 5000,
        valid_to: "2099-12-31T20:59:59.999Z",
        min_total: 0,
        max_uses: null,
        max_uses_per_customer: null,
        used: 0,
        is_active: 0,
        copied_from: vouchers[1].id,
      },
      {
        section: "catalogue",
        code: "WELCOME10",
        code_lc: "welcome10",
        discount_type: "percentage",
        amount: 1000,
        valid_to: null,
        min_total: 0,
        max_uses: 9,
        max_uses_per_customer: null,
        used: 4,
        is_active: 1,
        copied_from: discounts[0].id,
      },
      {
        section: "catalogue",
        code: "EID",
        code_lc: "eid",
        discount_type: "percentage",
        amount: 1250,
        valid_to: null,
        min_total: 0,
        max_uses: null,
        max_uses_per_customer: null,
        used: 0,
        is_active: 1,
        copied_from: discounts[1].id,
      },
    ]);
    const food = await db
      .selectFrom("food_orders")
      .select(["id", "offer_code_id"])
      .where("id", "in", [foodOrder.id, plainFoodOrder.id])
      .orderBy("id")
      .execute();
    expect(food).toEqual([
      { id: foodOrder.id, offer_code_id: copies[0].id },
      { id: plainFoodOrder.id, offer_code_id: null },
    ]);
    const catalogue = await db
      .selectFrom("catalogue_orders")
      .select("offer_code_id")
      .where("id", "=", catalogueOrder)
      .executeTakeFirstOrThrow();
    expect(catalogue.offer_code_id).toBe(copies[3].id);

    // A voucher keeps its id; a discount's moves past every old id, so a stale id names no other code of its section.
    expect(copies.slice(0, 2).map((copy) => copy.id)).toEqual(vouchers.map((voucher) => voucher.id));
    const oldIds = [...vouchers, ...discounts].map((row) => row.id);
    for (const copy of copies.slice(2)) expect(copy.id).toBeGreaterThan(Math.max(...oldIds));
    expect(copies[3].id - copies[2].id).toBe(discounts[1].id - discounts[0].id);
    // The next code, on either engine, takes an id after the copies.
    const next = await db
      .insertInto("offer_codes")
      .values({ ...code("NEW"), section: "catalogue" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(next.id).toBeGreaterThan(Math.max(...copies.map((copy) => copy.id)));
  });

  it("leaves no old discount id naming another discount, however many more discounts than vouchers there were", async () => {
    const earlier = await createTestDatabase({ upTo: "0041-audit-request-id" });
    try {
      const db = earlier.db;
      const { merchantId } = await seedMerchant(db, "Stale ids");
      const at = new Date().toISOString();
      const row = (value: string) => ({
        merchant_id: merchantId,
        code: value,
        code_lc: value.toLowerCase(),
        discount_type: "fixed" as const,
        amount: 500,
        is_active: 1,
        created_at: at,
        updated_at: at,
      });
      const voucher = await db.insertInto("food_vouchers").values(row("ONE")).returning("id").executeTakeFirstOrThrow();
      const discounts = [];
      for (const value of ["A", "B", "C"])
        discounts.push(await db.insertInto("catalogue_discounts").values(row(value)).returning("id").executeTakeFirstOrThrow());

      await migrateToLatest(db);

      const byId = async (id: number) =>
        db.selectFrom("offer_codes").select(["section", "code"]).where("id", "=", id).executeTakeFirst();
      expect(await byId(voucher.id)).toEqual({ section: "food_ordering", code: "ONE" });
      for (const discount of discounts) expect((await byId(discount.id))?.section).not.toBe("catalogue");
    } finally {
      await earlier.destroy();
    }
  });
});
