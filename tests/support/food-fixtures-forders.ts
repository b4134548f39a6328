import { randomBytes } from "node:crypto";
import { writeTransaction, type DB } from "~/db/database.server";
import type { FoodDeliveryType, FoodOrderStatus } from "~/db/schema";
import { createTransaction } from "~/domain/payments/transaction-state.server";

const stamp = () => new Date().toISOString();

/** A branch of the merchant with one category and one dish of `quantity` portions (null: unlimited), inserted as rows. */
export async function insertOrdersMenu(
  db: DB,
  merchantId: number,
  options: { branch?: string; quantity?: number | null } = {},
) {
  const name = options.branch ?? `Salmiya ${randomBytes(3).toString("hex")}`;
  const branch = await db
    .insertInto("food_branches")
    .values({
      merchant_id: merchantId,
      name_en: name,
      name_ar: `فرع ${name}`,
      offers_pickup: 1,
      offers_delivery: 1,
      offers_catering: 0,
      is_active: 1,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto("food_categories")
    .values({
      merchant_id: merchantId,
      name_en: "Grills",
      name_ar: "مشاوي",
      is_active: 1,
      is_catering: 0,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const item = await db
    .insertInto("food_items")
    .values({
      merchant_id: merchantId,
      category_id: category.id,
      name_en: "Mixed grill",
      name_ar: "مشاوي مشكلة",
      price: 4500,
      quantity: options.quantity === undefined ? 10 : options.quantity,
      is_available: 1,
      is_promoted: 0,
      created_at: stamp(),
      updated_at: stamp(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { branchId: branch.id, branchName: name, categoryId: category.id, itemId: item.id };
}

export type OrdersMenu = Awaited<ReturnType<typeof insertOrdersMenu>>;

/**
 * An order of `quantity` mixed grills as rows, its portions taken from the dish; with `transaction`
 * also its payment (state created, as a card order waiting on the pay page).
 */
export async function insertFoodOrder(
  db: DB,
  merchantId: number,
  menu: OrdersMenu,
  options: {
    status?: FoodOrderStatus;
    quantity?: number;
    name?: string;
    phone?: string;
    email?: string | null;
    deliveryType?: FoodDeliveryType;
    transaction?: boolean;
    seen?: boolean;
    createdAt?: string;
    lat?: number;
    lng?: number;
  } = {},
) {
  const quantity = options.quantity ?? 1;
  const total = 4500 * quantity;
  const number = randomBytes(5).toString("hex").toUpperCase();
  return writeTransaction(db, async (trx) => {
    const transaction = options.transaction
      ? await createTransaction(trx, {
          merchant_id: merchantId,
          plugin: "food_ordering",
          amount: total,
          currency_code: "KWD",
          editable_amount: 0,
          customer_email: options.email ?? null,
          customer_phone: options.phone ?? "+96550001234",
          customer_first_name: options.name ?? "Fatma",
          customer_last_name: null,
          description: `${quantity} × Mixed grill`,
          remarks: null,
          attachment_path: null,
          attachment_name: null,
          pg_codes: "knet",
          expiration_time: null,
          next_url: null,
          initiator_user_id: null,
          gateway_code: null,
          paid_attempt_id: null,
          send_email: 0,
          send_sms: 0,
          extra: JSON.stringify({ order: number }),
        })
      : null;
    const created = options.createdAt ?? stamp();
    const order = await trx
      .insertInto("food_orders")
      .values({
        merchant_id: merchantId,
        number,
        branch_id: menu.branchId,
        delivery_type: options.deliveryType ?? "delivery",
        status: options.status ?? "new",
        subtotal: total,
        total,
        currency_code: "KWD",
        customer_name: options.name ?? "Fatma",
        customer_email: options.email ?? null,
        customer_phone: options.phone ?? "+96550001234",
        customer_key: options.phone ?? "+96550001234",
        address:
          (options.deliveryType ?? "delivery") === "delivery"
            ? JSON.stringify({ address: "Home", area: "Salmiya", block: "4", street: "Baghdad St", house_no: "12" })
            : null,
        lat: options.lat ?? null,
        lng: options.lng ?? null,
        gateway_code: options.transaction ? "knet" : "cod",
        transaction_id: transaction?.id ?? null,
        lang: "en",
        holds_stock: 1,
        seen_at: options.seen ? created : null,
        created_at: created,
        updated_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("food_order_lines")
      .values({
        order_id: order.id,
        item_id: menu.itemId,
        category_id: menu.categoryId,
        name_en: "Mixed grill",
        name_ar: "مشاوي مشكلة",
        size_en: "Large",
        size_ar: "كبير",
        add_ons: JSON.stringify([{ id: 1, name_en: "Extra bread", name_ar: "خبز إضافي", price: 0 }]),
        options: JSON.stringify([
          { group_id: 1, group_en: "Spice", group_ar: "الحرارة", id: 2, name_en: "Mild", name_ar: "خفيف", price: 0 },
        ]),
        special_instructions: "No onions please",
        quantity,
        unit_price: 4500,
        line_total: total,
      })
      .execute();
    await trx
      .updateTable("food_items")
      .set((eb) => ({ quantity: eb("quantity", "-", quantity) }))
      .where("id", "=", menu.itemId)
      .where("quantity", "is not", null)
      .execute();
    return { id: order.id, number, transactionId: transaction?.id ?? null };
  });
}
