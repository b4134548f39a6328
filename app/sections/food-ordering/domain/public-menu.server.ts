import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import type { FoodOrderStatus } from "~/db/schema";
import { kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { now, nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { isOpenAt, type Interval } from "./hours";
import { itemPrice, loadMenuItems, type MenuItem } from "./pricing.server";

/*
 * What customers read of a merchant's food ordering: categories, items with their choices, branches
 * with hours and areas, the menu's settings, and an order by its unguessable number. Every reader
 * names the merchant (or finds it from the row it reads) and shows only what is active.
 */

export const nameIn = (row: { name_en: string; name_ar: string }, lang: Language) =>
  lang === "ar" ? row.name_ar || row.name_en : row.name_en || row.name_ar;

/** The installation's first merchant with an active food-ordering branch (the menu's default). */
export async function defaultFoodMerchant(db: DB): Promise<number | null> {
  const row = await db
    .selectFrom("food_branches")
    .select((eb) => eb.fn.min("merchant_id").as("merchant_id"))
    .where("is_active", "=", 1)
    .executeTakeFirst();
  return row?.merchant_id == null ? null : Number(row.merchant_id);
}

/** Whether the merchant has the section installed and at least one active branch. */
export async function foodOrderingInstalled(db: DB, merchantId: number) {
  const [plugin, branch] = await Promise.all([
    db
      .selectFrom("merchant_plugins")
      .select("plugin")
      .where("merchant_id", "=", merchantId)
      .where("plugin", "=", "food_ordering")
      .executeTakeFirst(),
    db
      .selectFrom("food_branches")
      .select("id")
      .where("merchant_id", "=", merchantId)
      .where("is_active", "=", 1)
      .executeTakeFirst(),
  ]);
  return { installed: plugin !== undefined, hasBranches: branch !== undefined };
}

export async function merchantExists(db: DB, merchantId: number) {
  return (await db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst()) !== undefined;
}

export type PublicCategory = {
  id: number;
  name_en: string;
  name_ar: string;
  description_en: string;
  description_ar: string;
  image_path: string | null;
  is_catering: number;
  min_plates: number;
  service_charge: number;
};

export function listCategories(db: DB, merchantId: number): Promise<PublicCategory[]> {
  return db
    .selectFrom("food_categories")
    .select([
      "id",
      "name_en",
      "name_ar",
      "description_en",
      "description_ar",
      "image_path",
      "is_catering",
      "min_plates",
      "service_charge",
    ])
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export async function findCategory(
  db: DB,
  id: number,
  merchantId?: number,
): Promise<(PublicCategory & { merchant_id: number }) | undefined> {
  let query = db
    .selectFrom("food_categories")
    .select([
      "id",
      "merchant_id",
      "name_en",
      "name_ar",
      "description_en",
      "description_ar",
      "image_path",
      "is_catering",
      "min_plates",
      "service_charge",
    ])
    .where("id", "=", id)
    .where("is_active", "=", 1);
  if (merchantId !== undefined) query = query.where("merchant_id", "=", merchantId);
  return query.executeTakeFirst();
}

export type PublicItem = MenuItem & {
  description_en: string;
  description_ar: string;
  image_path: string | null;
  is_promoted: number;
  sold_out: boolean;
  unit_price: number;
};

/** The merchant's available items (of one category, or promoted ones), each with its sizes, add-ons and options. */
export async function listItems(
  db: DB,
  merchantId: number,
  filter: { categoryId?: number; promoted?: boolean; ids?: number[]; listing?: boolean } = {},
): Promise<PublicItem[]> {
  let query = db
    .selectFrom("food_items")
    .innerJoin("food_categories", "food_categories.id", "food_items.category_id")
    .select([
      "food_items.id",
      "food_items.description_en",
      "food_items.description_ar",
      "food_items.image_path",
      "food_items.is_promoted",
    ])
    .where("food_items.merchant_id", "=", merchantId)
    .where("food_items.is_available", "=", 1)
    .where("food_categories.is_active", "=", 1)
    .orderBy("food_categories.position")
    .orderBy("food_items.category_id")
    .orderBy("food_items.position")
    .orderBy("food_items.id");
  if (filter.categoryId !== undefined) query = query.where("food_items.category_id", "=", filter.categoryId);
  if (filter.promoted) query = query.where("food_items.is_promoted", "=", 1);
  if (filter.ids)
    query = filter.ids.length ? query.where("food_items.id", "in", filter.ids) : query.where("food_items.id", "=", -1);
  const rows = await query.execute();
  const items = await loadMenuItems(
    db,
    merchantId,
    rows.map((row) => row.id),
    { sizesOnly: filter.listing },
  );
  return rows.flatMap((row) => {
    const item = items.get(row.id);
    return item
      ? [{ ...item, ...row, sold_out: item.quantity !== null && item.quantity <= 0, unit_price: itemPrice(item) }]
      : [];
  });
}

/** One available item (of anyone's menu: the public details page names it by id). */
export async function findItem(db: DB, id: number, merchantId?: number): Promise<PublicItem | undefined> {
  let query = db.selectFrom("food_items").select("merchant_id").where("id", "=", id);
  if (merchantId !== undefined) query = query.where("merchant_id", "=", merchantId);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const [item] = await listItems(db, row.merchant_id, { ids: [id] });
  return item;
}

export type PublicBranch = {
  id: number;
  merchant_id: number;
  name_en: string;
  name_ar: string;
  email: string | null;
  phone: string | null;
  address_html: string;
  image_path: string | null;
  min_order: number;
  delivery_minutes: number;
  lat: number | null;
  lng: number | null;
  offers_pickup: number;
  offers_delivery: number;
  offers_catering: number;
  hours: Interval[];
  is_open: boolean;
};

const BRANCH_COLUMNS = [
  "id",
  "merchant_id",
  "name_en",
  "name_ar",
  "email",
  "phone",
  "address_html",
  "image_path",
  "min_order",
  "delivery_minutes",
  "lat",
  "lng",
  "offers_pickup",
  "offers_delivery",
  "offers_catering",
] as const;

async function withHours(db: DB, branches: Omit<PublicBranch, "hours" | "is_open">[]): Promise<PublicBranch[]> {
  if (branches.length === 0) return [];
  const hours = await db
    .selectFrom("food_branch_hours")
    .select(["branch_id", "weekday", "opens", "closes"])
    .where(
      "branch_id",
      "in",
      branches.map((branch) => branch.id),
    )
    .orderBy("weekday")
    .orderBy("opens")
    .execute();
  const at = DateTime.fromJSDate(now());
  return branches.map((branch) => {
    const own = hours
      .filter((hour) => hour.branch_id === branch.id)
      .map(({ weekday, opens, closes }) => ({ weekday, opens, closes }));
    return { ...branch, hours: own, is_open: isOpenAt(own, at) };
  });
}

export async function listBranches(db: DB, merchantId: number): Promise<PublicBranch[]> {
  const rows = await db
    .selectFrom("food_branches")
    .select(BRANCH_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return withHours(db, rows);
}

export async function findPublicBranch(db: DB, id: number, merchantId?: number): Promise<PublicBranch | undefined> {
  let query = db.selectFrom("food_branches").select(BRANCH_COLUMNS).where("id", "=", id).where("is_active", "=", 1);
  if (merchantId !== undefined) query = query.where("merchant_id", "=", merchantId);
  const row = await query.executeTakeFirst();
  return row ? (await withHours(db, [row]))[0] : undefined;
}

export type PublicArea = {
  id: number;
  branch_id: number;
  area: string;
  zone: string;
  charge: number;
  min_order: number;
};

/** A branch's active delivery areas, named in the page's language. */
export async function listAreas(
  db: DB,
  branchId: number,
): Promise<(PublicArea & { name: string; name_en: string; name_ar: string })[]> {
  const rows = await db
    .selectFrom("food_delivery_areas")
    .select(["id", "branch_id", "area", "zone", "charge", "min_order"])
    .where("branch_id", "=", branchId)
    .where("is_active", "=", 1)
    .orderBy("area")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    ...row,
    name: row.area,
    name_en: kuwaitAreaIn(row.area, "en"),
    name_ar: kuwaitAreaIn(row.area, "ar"),
  }));
}

export function findArea(db: DB, branchId: number, areaId: number) {
  return db
    .selectFrom("food_delivery_areas")
    .select(["id", "branch_id", "area", "zone", "charge", "min_order"])
    .where("id", "=", areaId)
    .where("branch_id", "=", branchId)
    .where("is_active", "=", 1)
    .executeTakeFirst();
}

export type FoodSettings = {
  menu_page_config: Record<string, unknown>;
  header_config: Record<string, unknown>;
  banners: unknown[];
};

/** The merchant's menu settings (food_settings' JSON); missing or unreadable parts are empty. */
export async function loadFoodSettings(db: DB, merchantId: number): Promise<FoodSettings> {
  const row = await db
    .selectFrom("food_settings")
    .select("data")
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row?.data ?? "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed;
  } catch {}
  const object = (value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return {
    menu_page_config: object(data.menu_page_config ?? data.menu_config),
    header_config: object(data.header_config ?? data.header_configs),
    banners: Array.isArray(data.banners) ? data.banners : [],
  };
}

/** The merchant's enabled gateways for its currency (cash on delivery included). */
export async function acceptedGateways(db: DB, merchantId: number, lang: Language) {
  const { currency } = await loadMerchantDefaults(db, merchantId);
  const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: true });
  return {
    currency,
    gateways: gateways
      .filter((gateway) => supportsCurrency(gateway, currency))
      .map((gateway) => ({
        code: gateway.code,
        name: lang === "ar" ? gateway.name_ar : gateway.name_en,
        kind: gateway.kind,
        logo_url: gateway.logo_url,
      })),
  };
}

export const ORDER_STATES: readonly FoodOrderStatus[] = [
  "pending_payment",
  "new",
  "accepted",
  "preparing",
  "ready",
  "out_for_delivery",
  "picked_up",
  "delivered",
  "canceled",
];
/** States after which an order changes no more. */
export const FINAL_STATES: readonly FoodOrderStatus[] = ["delivered", "picked_up", "canceled"];

export type OrderLineView = {
  name_en: string;
  name_ar: string;
  size_en: string | null;
  size_ar: string | null;
  add_ons: { name_en: string; name_ar: string; price: number }[];
  options: { group_en: string; group_ar: string; name_en: string; name_ar: string; price: number }[];
  special_instructions: string;
  quantity: number;
  unit_price: number;
  line_total: number;
};

function parseList<T>(text: string): T[] {
  try {
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** An order by its public number, with its lines and branch; undefined for a number no order has. */
export async function findOrderByNumber(db: DB, number: string) {
  if (!/^[0-9A-Z]{6,20}$/.test(number)) return undefined;
  const order = await db
    .selectFrom("food_orders")
    .innerJoin("food_branches", "food_branches.id", "food_orders.branch_id")
    .leftJoin("food_delivery_areas", "food_delivery_areas.id", "food_orders.delivery_area_id")
    .select([
      "food_orders.id",
      "food_orders.merchant_id",
      "food_orders.number",
      "food_orders.order_no",
      "food_orders.status",
      "food_orders.delivery_type",
      "food_orders.scheduled_for",
      "food_orders.subtotal",
      "food_orders.discount",
      "food_orders.delivery_charge",
      "food_orders.service_charge",
      "food_orders.total",
      "food_orders.currency_code",
      "food_orders.customer_name",
      "food_orders.gateway_code",
      "food_orders.transaction_id",
      "food_orders.feedback_rating",
      "food_orders.feedback_comment",
      "food_orders.created_at",
      "food_orders.updated_at",
      "food_orders.branch_id",
      "food_branches.name_en as branch_en",
      "food_branches.name_ar as branch_ar",
      "food_delivery_areas.area as area",
    ])
    .where("food_orders.number", "=", number)
    .executeTakeFirst();
  if (!order) return undefined;
  const lines = await db
    .selectFrom("food_order_lines")
    .select([
      "name_en",
      "name_ar",
      "size_en",
      "size_ar",
      "add_ons",
      "options",
      "special_instructions",
      "quantity",
      "unit_price",
      "line_total",
    ])
    .where("order_id", "=", order.id)
    .orderBy("id")
    .execute();
  return {
    ...order,
    lines: lines.map((line): OrderLineView => ({
      ...line,
      add_ons: parseList(line.add_ons),
      options: parseList(line.options),
    })),
  };
}

export type PublicOrder = NonNullable<Awaited<ReturnType<typeof findOrderByNumber>>>;

/** Whether the customer may leave feedback on this order: handed over, none left yet. */
export const mayLeaveFeedback = (order: Pick<PublicOrder, "status" | "feedback_rating">) =>
  (order.status === "delivered" || order.status === "picked_up") && order.feedback_rating === null;

/** Keeps the customer's rating (1–5) and comment, once, on a handed-over order. */
export async function leaveOrderFeedback(db: DB, orderId: number, feedback: { rating: number; comment: string }) {
  const saved = await db
    .updateTable("food_orders")
    .set({ feedback_rating: feedback.rating, feedback_comment: feedback.comment, updated_at: nowIso() })
    .where("id", "=", orderId)
    .where("status", "in", ["delivered", "picked_up"])
    .where("feedback_rating", "is", null)
    .executeTakeFirst();
  return Number(saved.numUpdatedRows) === 1;
}
