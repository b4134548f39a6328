import type { Generated, Insertable, Kysely, Selectable } from "kysely";
import { writeTransaction, type DB } from "~/db/database.server";
import type { FoodCategoryTable, FoodItemTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { parseAmount, toDecimalString } from "~/lib/money";
import type { CategoryInput, MenuItemInput } from "./menu-schema";
import { addError, type Actor, type SetupErrors, type SetupOutcome } from "./setup-fields";

export type CategoryRow = Selectable<FoodCategoryTable>;
export type ItemRow = Selectable<FoodItemTable>;

type Change<T> = { merchantId: number; actor: Actor; input: T; ip?: string | null };

/** Minor units of a decimal text in `currency`, or an error on `field`. */
export function minorOf(
  value: string | null | undefined,
  currency: string,
  field: string,
  errors: SetupErrors,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = parseAmount(value === "" ? "0" : value, currency);
  if (!parsed.ok) {
    addError(errors, field, parsed.error);
    return undefined;
  }
  return parsed.minor;
}

// ---- categories ----

export function listCategories(db: DB, merchantId: number) {
  return db
    .selectFrom("food_categories")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export function getCategory(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("food_categories")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export function serializeCategory(category: CategoryRow, currency: string, lang: Language) {
  return {
    id: category.id,
    name: lang === "ar" ? category.name_ar : category.name_en,
    name_en: category.name_en,
    name_ar: category.name_ar,
    description_en: category.description_en,
    description_ar: category.description_ar,
    image: category.image_path,
    position: category.position,
    is_active: Boolean(category.is_active),
    is_catering: Boolean(category.is_catering),
    min_plates: category.min_plates,
    service_charge: toDecimalString(category.service_charge, currency),
  };
}

/** Creates a category (`id` absent) or changes the fields sent of one of the merchant's. */
export async function saveCategory(
  db: DB,
  change: Change<CategoryInput> & { id?: number },
): Promise<SetupOutcome<CategoryRow>> {
  const { currency } = await loadMerchantDefaults(db, change.merchantId);
  const input = change.input;
  const errors: SetupErrors = {};
  const existing = change.id === undefined ? undefined : await getCategory(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing) {
    if (!input.name_en) addError(errors, "name_en", "errors.required");
    if (!input.name_ar) addError(errors, "name_ar", "errors.required");
  }
  const serviceCharge = minorOf(input.service_charge, currency, "service_charge", errors);
  if (Object.keys(errors).length) return { ok: false, errors };
  const at = nowIso();
  const values = {
    name_en: input.name_en,
    name_ar: input.name_ar,
    description_en: input.description_en,
    description_ar: input.description_ar,
    image_path: input.image,
    position: input.position,
    is_active: input.is_active === undefined ? undefined : Number(input.is_active),
    is_catering: input.is_catering === undefined ? undefined : Number(input.is_catering),
    min_plates: input.min_plates,
    service_charge: serviceCharge,
    updated_at: at,
  };
  const row = await writeTransaction(db, async (trx) => {
    const saved = existing
      ? await trx
          .updateTable("food_categories")
          .set(values)
          .where("id", "=", existing.id)
          .where("merchant_id", "=", change.merchantId)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto("food_categories")
          .values({
            ...values,
            merchant_id: change.merchantId,
            name_en: input.name_en!,
            name_ar: input.name_ar!,
            is_active: Number(input.is_active ?? true),
            is_catering: Number(input.is_catering ?? false),
            created_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: existing ? "food_category_updated" : "food_category_created",
      params: { name: saved.name_en },
      objectType: "food_category",
      objectId: saved.id,
      ip: change.ip,
    });
    return saved;
  });
  if (!row) return { ok: false, errors: { quantity: [{ code: "food_setup.errors.quantity_changed" }] } };
  return { ok: true, value: row };
}

/** Ordered dishes stay: a category or an item that has orders is only deactivated (answers `deactivated`). */
export async function deleteCategory(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  const category = await getCategory(db, input.merchantId, input.id);
  if (!category) return { ok: false };
  return writeTransaction(db, async (trx) => {
    const ordered = await trx
      .selectFrom("food_order_lines")
      .select("id")
      .where("category_id", "=", category.id)
      .limit(1)
      .executeTakeFirst();
    const itemOrdered = await trx
      .selectFrom("food_order_lines")
      .innerJoin("food_items", "food_items.id", "food_order_lines.item_id")
      .select("food_order_lines.id")
      .where("food_items.category_id", "=", category.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered || itemOrdered) {
      await trx
        .updateTable("food_categories")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", category.id)
        .execute();
      await recordAudit(trx, {
        merchantId: input.merchantId,
        actor: input.actor,
        action: "food_category_deactivated",
        params: { name: category.name_en },
        objectType: "food_category",
        objectId: category.id,
        ip: input.ip,
      });
      return { ok: true, deactivated: true } as const;
    }
    const items = await trx.selectFrom("food_items").select("id").where("category_id", "=", category.id).execute();
    for (const item of items) await removeItemRows(trx, item.id);
    await trx.deleteFrom("food_categories").where("id", "=", category.id).execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "food_category_deleted",
      params: { name: category.name_en },
      objectType: "food_category",
      objectId: category.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: false } as const;
  });
}

// ---- menu items ----

export type ItemDetails = {
  item: ItemRow;
  sizes: { id: number; name_en: string; name_ar: string; price: number }[];
  addOns: { id: number; name_en: string; name_ar: string; price: number }[];
  groups: {
    id: number;
    name_en: string;
    name_ar: string;
    min_choices: number;
    max_choices: number;
    choices: { id: number; name_en: string; name_ar: string; price: number }[];
  }[];
};

export function listItems(db: DB, merchantId: number, options: { categoryId?: number } = {}) {
  let query = db.selectFrom("food_items").selectAll().where("merchant_id", "=", merchantId);
  if (options.categoryId !== undefined) query = query.where("category_id", "=", options.categoryId);
  return query.orderBy("category_id").orderBy("position").orderBy("id").limit(5000).execute();
}

export function getItem(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("food_items")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export async function loadItemDetails(db: DB, item: ItemRow): Promise<ItemDetails> {
  const [sizes, addOns, groups] = await Promise.all([
    db
      .selectFrom("food_item_sizes")
      .select(["id", "name_en", "name_ar", "price"])
      .where("item_id", "=", item.id)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("food_item_addons")
      .select(["id", "name_en", "name_ar", "price"])
      .where("item_id", "=", item.id)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("food_option_groups")
      .select(["id", "name_en", "name_ar", "min_choices", "max_choices"])
      .where("item_id", "=", item.id)
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
  return {
    item,
    sizes: sizes.map((row) => ({ ...row, price: Number(row.price) })),
    addOns: addOns.map((row) => ({ ...row, price: Number(row.price) })),
    groups: groups.map((group) => ({
      ...group,
      choices: choices
        .filter((choice) => choice.group_id === group.id)
        .map((choice) => ({
          id: choice.id,
          name_en: choice.name_en,
          name_ar: choice.name_ar,
          price: Number(choice.price),
        })),
    })),
  };
}

/** A dish as the API answers it: prices as decimal strings of the merchant's currency, `quantity` null when unlimited. */
export function serializeItem({ item, sizes, addOns, groups }: ItemDetails, currency: string, lang: Language) {
  const money = (minor: number) => toDecimalString(Number(minor), currency);
  const named = <T extends { name_en: string; name_ar: string }>(row: T) => ({
    name: lang === "ar" ? row.name_ar : row.name_en,
    name_en: row.name_en,
    name_ar: row.name_ar,
  });
  return {
    id: item.id,
    category: item.category_id,
    sku: item.sku,
    ...named(item),
    description_en: item.description_en,
    description_ar: item.description_ar,
    image: item.image_path,
    price: money(item.price),
    discounted_price: item.discounted_price === null ? null : money(item.discounted_price),
    quantity: item.quantity,
    is_available: Boolean(item.is_available),
    is_promoted: Boolean(item.is_promoted),
    position: item.position,
    sizes: sizes.map((size) => ({ id: size.id, ...named(size), price: money(size.price) })),
    add_ons: addOns.map((addOn) => ({ id: addOn.id, ...named(addOn), price: money(addOn.price) })),
    option_groups: groups.map((group) => ({
      id: group.id,
      ...named(group),
      min_choices: group.min_choices,
      max_choices: group.max_choices,
      choices: group.choices.map((choice) => ({ id: choice.id, ...named(choice), price: money(choice.price) })),
    })),
  };
}

type PricedRow = { name_en: string; name_ar: string; price: number };
type GroupRow = { name_en: string; name_ar: string; min_choices: number; max_choices: number; choices: PricedRow[] };

function pricedRows(
  rows: readonly { name_en: string; name_ar: string; price?: string }[] | undefined,
  field: string,
  currency: string,
  errors: SetupErrors,
): PricedRow[] | undefined {
  if (!rows) return undefined;
  return rows.map((row, index) => ({
    name_en: row.name_en,
    name_ar: row.name_ar,
    price: minorOf(row.price ?? "0", currency, `${field}.${index}.price`, errors) ?? 0,
  }));
}

/**
 * Creates a dish (`id` absent) or changes the fields sent of one of the merchant's. `sizes`,
 * `add_ons` and `option_groups`, when sent, are the whole lists: rows keep their ids by their place.
 */
export async function saveItem(
  db: DB,
  change: Change<MenuItemInput> & { id?: number },
): Promise<SetupOutcome<ItemRow>> {
  const { currency } = await loadMerchantDefaults(db, change.merchantId);
  const input = change.input;
  const errors: SetupErrors = {};
  const existing = change.id === undefined ? undefined : await getItem(db, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing) {
    for (const field of ["category", "name_en", "name_ar", "price"] as const)
      if (input[field] === undefined || input[field] === "") addError(errors, field, "errors.required");
  }
  if (input.category !== undefined && !(await getCategory(db, change.merchantId, input.category)))
    addError(errors, "category", "food.errors.category");
  const price = input.price === "" ? undefined : minorOf(input.price, currency, "price", errors);
  const discounted =
    input.discounted_price === null || input.discounted_price === ""
      ? null
      : minorOf(input.discounted_price, currency, "discounted_price", errors);
  const finalPrice = price ?? existing?.price;
  const finalDiscount = discounted === undefined ? (existing?.discounted_price ?? null) : discounted;
  if (finalPrice !== undefined && finalDiscount !== null && finalDiscount !== undefined && finalDiscount > finalPrice)
    addError(errors, "discounted_price", "food_setup.errors.discount_above_price");
  const sizes = pricedRows(input.sizes, "sizes", currency, errors);
  const addOns = pricedRows(input.add_ons, "add_ons", currency, errors);
  const groups: GroupRow[] | undefined = input.option_groups?.map((group, index) => {
    const min = group.min_choices ?? 0;
    const max = group.max_choices ?? 1;
    const choices = pricedRows(group.choices ?? [], `option_groups.${index}.choices`, currency, errors) ?? [];
    if (min > max) addError(errors, `option_groups.${index}.min_choices`, "food_setup.errors.min_above_max");
    if (choices.length === 0) addError(errors, `option_groups.${index}.choices`, "food_setup.errors.choices_required");
    else if (max > choices.length)
      addError(errors, `option_groups.${index}.max_choices`, "food_setup.errors.max_above_choices", {
        choices: choices.length,
      });
    return { name_en: group.name_en, name_ar: group.name_ar, min_choices: min, max_choices: max, choices };
  });
  // The page's quantity is what it showed: unchanged, sales meanwhile stand; changed, only if none happened.
  const shown =
    input.quantity_shown === undefined ? undefined : input.quantity_shown === "" ? null : Number(input.quantity_shown);
  const quantityTyped = existing && shown !== undefined && input.quantity === shown ? undefined : input.quantity;
  if (Object.keys(errors).length) return { ok: false, errors };
  const at = nowIso();
  const values = {
    category_id: input.category,
    sku: input.sku === "" ? null : input.sku,
    name_en: input.name_en,
    name_ar: input.name_ar,
    description_en: input.description_en,
    description_ar: input.description_ar,
    image_path: input.image,
    price,
    discounted_price: discounted,
    quantity: quantityTyped,
    is_available: input.is_available === undefined ? undefined : Number(input.is_available),
    is_promoted: input.is_promoted === undefined ? undefined : Number(input.is_promoted),
    position: input.position,
    updated_at: at,
  };
  const row = await writeTransaction(db, async (trx) => {
    let update = trx
      .updateTable("food_items")
      .set(values)
      .where("id", "=", existing?.id ?? 0)
      .where("merchant_id", "=", change.merchantId);
    if (existing && quantityTyped !== undefined && shown !== undefined)
      update = update.where("quantity", shown === null ? "is" : "=", shown);
    const saved = existing
      ? await update.returningAll().executeTakeFirst()
      : await trx
          .insertInto("food_items")
          .values({
            ...values,
            merchant_id: change.merchantId,
            category_id: input.category!,
            name_en: input.name_en!,
            name_ar: input.name_ar!,
            price: price!,
            is_available: Number(input.is_available ?? true),
            is_promoted: Number(input.is_promoted ?? false),
            created_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
    if (!saved) return undefined;
    if (sizes) await syncRows(trx, "food_item_sizes", "item_id", saved.id, sizes);
    if (addOns) await syncRows(trx, "food_item_addons", "item_id", saved.id, addOns);
    if (groups) {
      const ids = await syncRows(
        trx,
        "food_option_groups",
        "item_id",
        saved.id,
        groups.map(({ choices: _choices, ...group }) => group),
      );
      for (const [index, group] of groups.entries())
        await syncRows(trx, "food_option_choices", "group_id", ids[index], group.choices);
    }
    await recordAudit(trx, {
      merchantId: change.merchantId,
      actor: change.actor,
      action: existing ? "food_item_updated" : "food_item_created",
      params: { name: saved.name_en },
      objectType: "food_item",
      objectId: saved.id,
      ip: change.ip,
    });
    return saved;
  });
  if (!row) return { ok: false, errors: { quantity: [{ code: "food_setup.errors.quantity_changed" }] } };
  return { ok: true, value: row };
}

type ChildTable = "food_item_sizes" | "food_item_addons" | "food_option_groups" | "food_option_choices";

/** Makes a parent's rows the list given: the rows already there keep their ids by their place, the rest are added or taken away. */
async function syncRows(
  trx: DB,
  table: ChildTable,
  parent: "item_id" | "group_id",
  parentId: number,
  rows: readonly Record<string, string | number>[],
): Promise<number[]> {
  // The tables share the columns used here; Kysely cannot narrow a union of tables.
  type Child = {
    id: Generated<number>;
    item_id: number;
    group_id: number;
    position: number;
    name_en: string;
    name_ar: string;
    price: number;
    min_choices: number;
    max_choices: number;
  };
  const db = trx as unknown as Kysely<Record<ChildTable, Child>>;
  const existing = await db
    .selectFrom(table)
    .select("id")
    .where(parent, "=", parentId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const ids: number[] = [];
  for (const [position, row] of rows.entries()) {
    const current = existing[position];
    if (current) {
      await db
        .updateTable(table)
        .set({ ...row, position })
        .where("id", "=", current.id)
        .execute();
      ids.push(current.id);
    } else {
      const inserted = await db
        .insertInto(table)
        .values({ ...row, [parent]: parentId, position } as unknown as Insertable<Child>)
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(inserted.id);
    }
  }
  const surplus = existing.slice(rows.length).map((row) => row.id);
  if (surplus.length) {
    if (table === "food_option_groups")
      await db.deleteFrom("food_option_choices").where("group_id", "in", surplus).execute();
    await db.deleteFrom(table).where("id", "in", surplus).execute();
  }
  return ids;
}

async function removeItemRows(trx: DB, itemId: number) {
  const groups = await trx.selectFrom("food_option_groups").select("id").where("item_id", "=", itemId).execute();
  if (groups.length)
    await trx
      .deleteFrom("food_option_choices")
      .where(
        "group_id",
        "in",
        groups.map((group) => group.id),
      )
      .execute();
  await trx.deleteFrom("food_option_groups").where("item_id", "=", itemId).execute();
  await trx.deleteFrom("food_item_addons").where("item_id", "=", itemId).execute();
  await trx.deleteFrom("food_item_sizes").where("item_id", "=", itemId).execute();
  await trx.deleteFrom("food_items").where("id", "=", itemId).execute();
}

/** A dish with orders is only made unavailable; one without is deleted with its sizes, add-ons and options. */
export async function deleteItem(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; ip?: string | null },
): Promise<{ ok: true; deactivated: boolean } | { ok: false }> {
  const item = await getItem(db, input.merchantId, input.id);
  if (!item) return { ok: false };
  return writeTransaction(db, async (trx) => {
    const ordered = await trx
      .selectFrom("food_order_lines")
      .select("id")
      .where("item_id", "=", item.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered)
      await trx
        .updateTable("food_items")
        .set({ is_available: 0, updated_at: nowIso() })
        .where("id", "=", item.id)
        .execute();
    else await removeItemRows(trx, item.id);
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "food_item_deactivated" : "food_item_deleted",
      params: { name: item.name_en },
      objectType: "food_item",
      objectId: item.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}
