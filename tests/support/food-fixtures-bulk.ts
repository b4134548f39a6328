import type { DB } from "~/db/database.server";

const stamp = () => new Date().toISOString();

/** A menu category of the merchant, inserted as a row. */
export async function insertBulkCategory(db: DB, merchantId: number, name: string) {
  const row = await db
    .insertInto("food_categories")
    .values({
      merchant_id: merchantId,
      name_en: name,
      name_ar: `فئة ${name}`,
      position: 1,
      is_active: 1,
      is_catering: 0,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An item of the category with a SKU, inserted as a row. */
export async function insertBulkItem(db: DB, merchantId: number, categoryId: number, sku: string) {
  const row = await db
    .insertInto("food_items")
    .values({
      merchant_id: merchantId,
      category_id: categoryId,
      sku,
      name_en: `Item ${sku}`,
      name_ar: `صنف ${sku}`,
      price: 1000,
      is_available: 1,
      is_promoted: 0,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The merchant's items with their category's name, sizes and add-ons, by English name. */
export async function menuOf(db: DB, merchantId: number) {
  const items = await db
    .selectFrom("food_items")
    .innerJoin("food_categories", "food_categories.id", "food_items.category_id")
    .select([
      "food_items.id",
      "food_items.name_en",
      "food_items.name_ar",
      "food_items.price",
      "food_items.discounted_price",
      "food_items.quantity",
      "food_items.sku",
      "food_items.is_available",
      "food_items.is_promoted",
      "food_categories.name_en as category",
    ])
    .where("food_items.merchant_id", "=", merchantId)
    .orderBy("food_items.id")
    .execute();
  const ids = items.map((item) => item.id);
  const sizes = ids.length
    ? await db
        .selectFrom("food_item_sizes")
        .select(["item_id", "name_en", "price"])
        .where("item_id", "in", ids)
        .orderBy("position")
        .execute()
    : [];
  const addOns = ids.length
    ? await db
        .selectFrom("food_item_addons")
        .select(["item_id", "name_en", "price"])
        .where("item_id", "in", ids)
        .orderBy("position")
        .execute()
    : [];
  return items.map((item) => ({
    ...item,
    sizes: sizes.filter((size) => size.item_id === item.id).map((size) => `${size.name_en}:${size.price}`),
    addOns: addOns.filter((addOn) => addOn.item_id === item.id).map((addOn) => `${addOn.name_en}:${addOn.price}`),
  }));
}

/** Turns a feature of the food-ordering section off for the merchant. */
export async function removeFoodFeature(db: DB, merchantId: number, feature: string) {
  await db
    .deleteFrom("merchant_features")
    .where("merchant_id", "=", merchantId)
    .where("section", "=", "food_ordering")
    .where("feature", "=", feature)
    .execute();
}
