import type { DB } from "~/db/database.server";
import { insertOfferCode } from "./offer-code-fixtures";

let counter = 0;

export type TestMenuInput = {
  merchantId: number;
  /** Branch hours; default: open every day all day. */
  hours?: { weekday: number; opens: string; closes: string }[];
  /** Portions of the burger; null: unlimited. */
  burgerQuantity?: number | null;
  minOrder?: number;
};

/** A restaurant's menu written straight into the tables as the set-up pages would: a category, two dishes (one with sizes, add-ons and options), a branch with an area, a voucher. */
export async function createTestMenu(db: DB, input: TestMenuInput) {
  counter += 1;
  const at = new Date().toISOString();
  const category = await db
    .insertInto("food_categories")
    .values({
      merchant_id: input.merchantId,
      name_en: `Mains ${counter}`,
      name_ar: `أطباق ${counter}`,
      is_active: 1,
      is_catering: 0,
      position: counter,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const item = (values: {
    name_en: string;
    name_ar: string;
    price: number;
    discounted_price?: number | null;
    quantity?: number | null;
    is_promoted?: number;
  }) =>
    db
      .insertInto("food_items")
      .values({
        merchant_id: input.merchantId,
        category_id: category.id,
        is_available: 1,
        is_promoted: 0,
        created_at: at,
        updated_at: at,
        ...values,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  const burger = await item({
    name_en: "Burger",
    name_ar: "برجر",
    price: 2500,
    quantity: input.burgerQuantity === undefined ? null : input.burgerQuantity,
    is_promoted: 1,
  });
  const salad = await item({ name_en: "Salad", name_ar: "سلطة", price: 2000, discounted_price: 1500 });
  const small = await db
    .insertInto("food_item_sizes")
    .values({ item_id: burger.id, name_en: "Single", name_ar: "عادي", price: 2500, position: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const large = await db
    .insertInto("food_item_sizes")
    .values({ item_id: burger.id, name_en: "Double", name_ar: "دبل", price: 3500, position: 2 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const cheese = await db
    .insertInto("food_item_addons")
    .values({ item_id: burger.id, name_en: "Cheese", name_ar: "جبنة", price: 250 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const group = await db
    .insertInto("food_option_groups")
    .values({ item_id: burger.id, name_en: "Side", name_ar: "طبق جانبي", min_choices: 1, max_choices: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const fries = await db
    .insertInto("food_option_choices")
    .values({ group_id: group.id, name_en: "Fries", name_ar: "بطاطس", price: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const branch = await db
    .insertInto("food_branches")
    .values({
      merchant_id: input.merchantId,
      name_en: `Salmiya ${counter}`,
      name_ar: `السالمية ${counter}`,
      email: "salmiya@example.com",
      phone: "+96522000000",
      address_html: "Salem Al Mubarak St.",
      min_order: input.minOrder ?? 0,
      delivery_minutes: 40,
      offers_pickup: 1,
      offers_delivery: 1,
      offers_catering: 1,
      is_active: 1,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const hours = input.hours ?? [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, opens: "00:00", closes: "23:59" }));
  if (hours.length)
    await db
      .insertInto("food_branch_hours")
      .values(hours.map((hour) => ({ branch_id: branch.id, ...hour })))
      .execute();
  const area = await db
    .insertInto("food_delivery_areas")
    .values({
      merchant_id: input.merchantId,
      branch_id: branch.id,
      area: "Salmiya",
      charge: 500,
      min_order: 0,
      is_active: 1,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const otherBranch = await db
    .insertInto("food_branches")
    .values({
      merchant_id: input.merchantId,
      name_en: `Jabriya ${counter}`,
      name_ar: `الجابرية ${counter}`,
      offers_pickup: 1,
      offers_delivery: 1,
      offers_catering: 0,
      is_active: 1,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const farArea = await db
    .insertInto("food_delivery_areas")
    .values({ merchant_id: input.merchantId, branch_id: otherBranch.id, area: "Jahra", charge: 1000, is_active: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const code = `SAVE${counter}X`;
  await insertOfferCode(db, "food_ordering", {
    merchant_id: input.merchantId,
    code,
    code_lc: code.toLowerCase(),
    discount_type: "percentage",
    amount: 1000,
    is_active: 1,
    max_uses: 100,
    created_at: at,
    updated_at: at,
  });
  return {
    categoryId: category.id,
    burgerId: burger.id,
    saladId: salad.id,
    smallId: small.id,
    largeId: large.id,
    cheeseId: cheese.id,
    groupId: group.id,
    friesId: fries.id,
    branchId: branch.id,
    areaId: area.id,
    otherBranchId: otherBranch.id,
    farAreaId: farArea.id,
    voucher: code,
  };
}

export type TestMenu = Awaited<ReturnType<typeof createTestMenu>>;
