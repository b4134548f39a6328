import type { DB } from "~/db/database.server";
import {
  checkOfferCode,
  findOfferCode,
  type OfferCode,
  type OfferCodeScope,
} from "~/domain/commerce/offer-codes.server";
import type { FoodDeliveryType } from "~/db/schema";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import type { TextParams } from "~/lib/outcome";
import type { CheckoutLineInput } from "./checkout-schema";

/** An item as the menu, the cart and the checkout read it: its sizes, add-ons and option groups. */
export type MenuItem = {
  id: number;
  merchant_id: number;
  category_id: number;
  name_en: string;
  name_ar: string;
  price: number;
  discounted_price: number | null;
  quantity: number | null;
  is_available: number;
  category_active: number;
  is_catering: number;
  sizes: { id: number; name_en: string; name_ar: string; price: number }[];
  add_ons: { id: number; name_en: string; name_ar: string; price: number }[];
  groups: {
    id: number;
    name_en: string;
    name_ar: string;
    min_choices: number;
    max_choices: number;
    choices: { id: number; name_en: string; name_ar: string; price: number }[];
  }[];
};

/** The merchant's items by id, with everything a line may choose. */
export async function loadMenuItems(
  db: DB,
  merchantId: number,
  ids: readonly number[],
  options: { sizesOnly?: boolean } = {},
): Promise<Map<number, MenuItem>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const items = await db
    .selectFrom("food_items")
    .innerJoin("food_categories", "food_categories.id", "food_items.category_id")
    .select([
      "food_items.id",
      "food_items.merchant_id",
      "food_items.category_id",
      "food_items.name_en",
      "food_items.name_ar",
      "food_items.price",
      "food_items.discounted_price",
      "food_items.quantity",
      "food_items.is_available",
      "food_categories.is_active as category_active",
      "food_categories.is_catering",
    ])
    .where("food_items.merchant_id", "=", merchantId)
    .where("food_items.id", "in", unique)
    .execute();
  if (items.length === 0) return new Map();
  const itemIds = items.map((item) => item.id);
  // A listing (the menu page) needs the sizes' prices only; a line or a dish's page needs everything.
  const [sizes, addOns, groups] = await Promise.all([
    db
      .selectFrom("food_item_sizes")
      .select(["id", "item_id", "name_en", "name_ar", "price"])
      .where("item_id", "in", itemIds)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    options.sizesOnly
      ? []
      : db
          .selectFrom("food_item_addons")
          .select(["id", "item_id", "name_en", "name_ar", "price"])
          .where("item_id", "in", itemIds)
          .orderBy("position")
          .orderBy("id")
          .execute(),
    options.sizesOnly
      ? []
      : db
          .selectFrom("food_option_groups")
          .select(["id", "item_id", "name_en", "name_ar", "min_choices", "max_choices"])
          .where("item_id", "in", itemIds)
          .orderBy("position")
          .orderBy("id")
          .execute(),
  ]);
  const choices = groups.length
    ? await db
        .selectFrom("food_option_choices")
        .select(["id", "group_id", "name_en", "name_ar", "price"])
        .where(
          "group_id",
          "in",
          groups.map((group) => group.id),
        )
        .orderBy("position")
        .orderBy("id")
        .execute()
    : [];
  const byItem = new Map<number, MenuItem>();
  for (const item of items) {
    byItem.set(item.id, {
      ...item,
      sizes: sizes.filter((size) => size.item_id === item.id),
      add_ons: addOns.filter((addOn) => addOn.item_id === item.id),
      groups: groups
        .filter((group) => group.item_id === item.id)
        .map((group) => ({ ...group, choices: choices.filter((choice) => choice.group_id === group.id) })),
    });
  }
  return byItem;
}

export type PricedLine = {
  index: number;
  item: MenuItem;
  categoryId: number;
  size: MenuItem["sizes"][number] | null;
  addOns: MenuItem["add_ons"];
  options: {
    group_id: number;
    group_en: string;
    group_ar: string;
    id: number;
    name_en: string;
    name_ar: string;
    price: number;
  }[];
  specialInstructions: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
};

/** An item's own price: its discounted price when it has one. */
export function itemPrice(item: Pick<MenuItem, "price" | "discounted_price">) {
  return item.discounted_price ?? item.price;
}

/**
 * Prices one line from the menu alone (never from what the browser says): the size's price or the
 * item's, plus its add-ons and chosen options, times the quantity. Errors are keyed by the line's
 * place (`lines.2.size`).
 */
export function priceLine(
  item: MenuItem | undefined,
  line: CheckoutLineInput,
  index: number,
  errors: FieldErrors,
): PricedLine | null {
  const key = (field: string) => `lines.${index}.${field}`;
  if (!item) {
    errors[key("menu_item")] = ["food.errors.menu_item"];
    return null;
  }
  if (!item.is_available || !item.category_active) {
    errors[key("menu_item")] = ["food.errors.unavailable"];
    return null;
  }
  if (item.quantity !== null && item.quantity <= 0) {
    errors[key("quantity")] = ["food.errors.sold_out"];
    return null;
  }
  let ok = true;
  let size: PricedLine["size"] = null;
  if (line.size !== undefined) {
    size = item.sizes.find((candidate) => candidate.id === line.size) ?? null;
    if (!size) {
      errors[key("size")] = ["food.errors.size"];
      ok = false;
    }
  } else if (item.sizes.length > 0) {
    errors[key("size")] = ["food.errors.size_required"];
    ok = false;
  }
  const addOns = [...new Set(line.add_ons)].map((id) => item.add_ons.find((candidate) => candidate.id === id));
  if (addOns.some((addOn) => !addOn)) {
    errors[key("add_ons")] = ["food.errors.add_on"];
    ok = false;
  }
  const options: PricedLine["options"] = [];
  for (const [groupKey, chosen] of Object.entries(line.options)) {
    if (!item.groups.some((group) => String(group.id) === groupKey)) {
      errors[key("options")] = ["food.errors.option"];
      ok = false;
    }
    void chosen;
  }
  for (const group of item.groups) {
    const picked = line.options[String(group.id)];
    const ids = picked === undefined ? [] : Array.isArray(picked) ? [...new Set(picked)] : [picked];
    const found = ids.map((id) => group.choices.find((choice) => choice.id === id));
    if (found.some((choice) => !choice)) {
      errors[key("options")] = ["food.errors.option"];
      ok = false;
      continue;
    }
    if (ids.length < group.min_choices || ids.length > group.max_choices) {
      errors[key("options")] = ["food.errors.option_count"];
      ok = false;
      continue;
    }
    for (const choice of found)
      options.push({ group_id: group.id, group_en: group.name_en, group_ar: group.name_ar, ...choice! });
  }
  if (!ok) return null;
  const unitPrice =
    (size ? size.price : itemPrice(item)) +
    addOns.reduce((sum, addOn) => sum + addOn!.price, 0) +
    options.reduce((sum, option) => sum + option.price, 0);
  return {
    index,
    item,
    categoryId: item.category_id,
    size,
    addOns: addOns as MenuItem["add_ons"],
    options,
    specialInstructions: line.special_instructions,
    quantity: line.quantity,
    unitPrice,
    lineTotal: unitPrice * line.quantity,
  };
}

/** The section's offer codes: its vouchers, limited per customer by the orders of their phone not canceled. */
export const VOUCHERS: OfferCodeScope = {
  section: "food_ordering",
  texts: "food.errors.voucher_",
  customerUses: async (db, offerCodeId, customerKey) => {
    const row = await db
      .selectFrom("food_orders")
      .select((eb) => eb.fn.countAll<number>().as("uses"))
      .where("offer_code_id", "=", offerCodeId)
      .where("customer_key", "=", customerKey)
      .where("status", "!=", "canceled")
      .executeTakeFirstOrThrow();
    return Number(row.uses);
  },
};

/** The merchant's voucher of this code (any case). */
export function findVoucher(db: DB, merchantId: number, code: string) {
  return findOfferCode(db, VOUCHERS, merchantId, code);
}

/**
 * Whether a voucher applies now to this subtotal and customer (checkOfferCode): the refusal's code is
 * a translation key, its `minimum` in minor units.
 */
export function checkVoucher(db: DB, voucher: OfferCode | undefined, subtotal: number, customerKey: string | null) {
  return checkOfferCode(db, VOUCHERS, voucher, { subtotal, customerKey });
}

/** Catering: each catering category's plates against its minimum, and its service charge once. Errors name the category. */
export async function cateringCharges(
  db: DB,
  lines: readonly PricedLine[],
  deliveryType: FoodDeliveryType,
  errors: FieldErrors,
  params: TextParams,
) {
  const categoryIds = [...new Set(lines.map((line) => line.categoryId))];
  if (categoryIds.length === 0) return 0;
  const categories = await db
    .selectFrom("food_categories")
    .select(["id", "name_en", "name_ar", "is_catering", "min_plates", "service_charge"])
    .where("id", "in", categoryIds)
    .execute();
  let service = 0;
  for (const category of categories) {
    const plates = lines
      .filter((line) => line.categoryId === category.id)
      .reduce((sum, line) => sum + line.quantity, 0);
    if (deliveryType === "catering") {
      if (!category.is_catering) {
        errors.lines = ["food.errors.not_catering"];
        continue;
      }
      if (plates < category.min_plates) {
        errors.lines = ["food.errors.catering_minimum"];
        params.category = `${category.name_en} / ${category.name_ar}`;
        params.minimum = category.min_plates;
        params.plates = plates;
      }
      service += category.service_charge;
    } else if (category.is_catering) {
      errors.lines = ["food.errors.catering_only"];
    }
  }
  return service;
}
