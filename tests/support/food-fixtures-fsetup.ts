import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";

/** A branch of the merchant written straight into its table (open every day 00:00–23:59 unless hours are given). */
export async function insertFoodBranch(
  db: DB,
  merchantId: number,
  input: { name: string; hours?: { weekday: number; opens: string; closes: string }[] },
) {
  const at = nowIso();
  const branch = await db
    .insertInto("food_branches")
    .values({
      merchant_id: merchantId,
      name_en: input.name,
      name_ar: `فرع ${input.name}`,
      email: null,
      phone: null,
      address_html: "",
      offers_pickup: 1,
      offers_delivery: 1,
      offers_catering: 0,
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
      .values(hours.map((interval) => ({ branch_id: branch.id, ...interval })))
      .execute();
  return branch.id;
}

/** An order of one line of this dish at this branch, as if a customer had placed it (status new). */
export async function insertFoodOrder(
  db: DB,
  merchantId: number,
  input: { branchId: number; itemId: number; categoryId: number; voucherId?: number; areaId?: number },
) {
  const at = nowIso();
  const order = await db
    .insertInto("food_orders")
    .values({
      merchant_id: merchantId,
      number: `T${Math.random().toString(36).slice(2, 11).toUpperCase()}`,
      branch_id: input.branchId,
      delivery_type: input.areaId ? "delivery" : "pickup",
      delivery_area_id: input.areaId ?? null,
      status: "new",
      subtotal: 1000,
      total: 1000,
      currency_code: "KWD",
      offer_code_id: input.voucherId ?? null,
      customer_name: "Fatma",
      customer_phone: "+96550001234",
      customer_key: "+96550001234",
      gateway_code: "cod",
      holds_stock: 0,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("food_order_lines")
    .values({
      order_id: order.id,
      item_id: input.itemId,
      category_id: input.categoryId,
      name_en: "Dish",
      name_ar: "طبق",
      quantity: 1,
      unit_price: 1000,
      line_total: 1000,
    })
    .execute();
  return order.id;
}
