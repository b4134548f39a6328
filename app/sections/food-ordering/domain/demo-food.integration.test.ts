import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { foodOrdering } from "../section";
import { isOpenAt } from "./hours";
import { checkVoucher, findVoucher } from "./pricing.server";
import { DateTime } from "luxon";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Demo");
});
afterAll(async () => {
  await database?.destroy();
});

describe("the demo restaurant", () => {
  it("is made by the section's demo job: a menu with catering, two branches with areas and hours, and the voucher WELCOME10", async () => {
    const { sectionServer } = await foodOrdering.server();
    const demoJob = sectionServer.jobs![foodOrdering.demoJob];
    await demoJob(database.db, { merchantId: shop.merchantId, userId: shop.admin.id });
    const db = database.db;
    const categories = await db
      .selectFrom("food_categories")
      .select(["id", "name_en", "is_catering", "min_plates", "service_charge"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(categories.length).toBeGreaterThanOrEqual(5);
    expect(categories.filter((category) => category.is_catering)).toEqual([
      expect.objectContaining({ min_plates: 10, service_charge: expect.any(Number) }),
    ]);
    const items = await db
      .selectFrom("food_items")
      .select(["id", "quantity", "name_ar"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(items.length).toBeGreaterThanOrEqual(18);
    expect(items.every((item) => item.name_ar.trim() !== "")).toBe(true);
    expect(items.filter((item) => item.quantity !== null)).toHaveLength(1);
    const branches = await db
      .selectFrom("food_branches")
      .select(["id", "name_en", "offers_catering"])
      .where("merchant_id", "=", shop.merchantId)
      .orderBy("position")
      .execute();
    expect(branches.map((branch) => [branch.name_en, branch.offers_catering])).toEqual([
      ["Salmiya", 0],
      ["Kuwait City", 1],
    ]);
    for (const branch of branches) {
      const areas = await db
        .selectFrom("food_delivery_areas")
        .select(["area", "charge"])
        .where("branch_id", "=", branch.id)
        .execute();
      expect(areas.length).toBeGreaterThanOrEqual(5);
      expect(areas.every((area) => area.charge >= 500 && area.charge <= 1000)).toBe(true);
      const hours = await db
        .selectFrom("food_branch_hours")
        .select(["weekday", "opens", "closes"])
        .where("branch_id", "=", branch.id)
        .execute();
      expect(isOpenAt(hours, DateTime.fromISO("2030-06-04T20:00:00", { zone: "Asia/Kuwait" }))).toBe(true);
      expect(isOpenAt(hours, DateTime.fromISO("2030-06-04T08:00:00", { zone: "Asia/Kuwait" }))).toBe(false);
    }
    const voucher = await findVoucher(db, shop.merchantId, "welcome10");
    expect(voucher).toMatchObject({
      code: "WELCOME10",
      discount_type: "percentage",
      amount: 1000,
      max_uses_per_customer: 1,
    });
    expect(await checkVoucher(db, voucher, 10_000, "+96550000000")).toEqual({ ok: true });

    // Run again, it adds nothing.
    await demoJob(database.db, { merchantId: shop.merchantId, userId: shop.admin.id });
    expect(
      await db.selectFrom("food_items").select("id").where("merchant_id", "=", shop.merchantId).execute(),
    ).toHaveLength(items.length);
  });
});
