import { sql } from "kysely";
import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import type { FoodDeliveryType, FoodOrderStatus } from "~/db/schema";
import { nowIso } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { DELIVERY_TYPES, ORDER_FILTER_NAMES, ORDER_PAGE_SIZES, ORDER_STATUSES } from "./order-filters";

export type OrderFilters = {
  status?: FoodOrderStatus;
  delivery_type?: FoodDeliveryType;
  branch?: number;
  created_after?: string;
  created_before?: string;
  q?: string;
};

export type OrderQuery = {
  filters: OrderFilters;
  page: number;
  pageSize: number;
  errors: Record<string, string>;
  raw: Record<string, string>;
};

const ID = /^\d{1,10}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function kuwaitDay(value: string, end: boolean) {
  if (!DAY.test(value)) return undefined;
  const day = DateTime.fromISO(value, { zone: DISPLAY_ZONE });
  if (!day.isValid) return undefined;
  return (end ? day.endOf("day") : day.startOf("day")).toUTC().toISO() ?? undefined;
}

/** The orders list's query string (the page's and the API's): its filters, the page and the rows per page. */
export function parseOrderQuery(params: URLSearchParams): OrderQuery {
  const raw: Record<string, string> = {};
  for (const name of [...ORDER_FILTER_NAMES, "page", "page_size"]) {
    const value = params.get(name)?.trim();
    if (value) raw[name] = value.slice(0, 200);
  }
  const filters: OrderFilters = {};
  const errors: Record<string, string> = {};
  if (raw.q) filters.q = raw.q.slice(0, 100);
  if (raw.status) {
    if ((ORDER_STATUSES as readonly string[]).includes(raw.status)) filters.status = raw.status as FoodOrderStatus;
    else errors.status = "food_orders.errors.status";
  }
  if (raw.delivery_type) {
    if ((DELIVERY_TYPES as readonly string[]).includes(raw.delivery_type))
      filters.delivery_type = raw.delivery_type as FoodDeliveryType;
    else errors.delivery_type = "food_orders.errors.delivery_type";
  }
  if (raw.branch) {
    if (ID.test(raw.branch)) filters.branch = Number(raw.branch);
    else errors.branch = "food_orders.errors.branch";
  }
  for (const [name, end] of [
    ["created_after", false],
    ["created_before", true],
  ] as const) {
    if (!raw[name]) continue;
    const instant = kuwaitDay(raw[name], end);
    if (instant) filters[name] = instant;
    else errors[name] = "food_orders.errors.date";
  }
  if (filters.created_after && filters.created_before && filters.created_before < filters.created_after) {
    errors.created_before = "food_orders.errors.range";
    delete filters.created_before;
  }
  const size = Number(raw.page_size);
  const pageSize = (ORDER_PAGE_SIZES as readonly number[]).includes(size) ? size : 10;
  const page = raw.page && /^\d{1,6}$/.test(raw.page) && Number(raw.page) > 0 ? Number(raw.page) : 1;
  return { filters, page, pageSize, errors, raw };
}

function like(value: string) {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function filtered(db: DB, merchantId: number, filters: OrderFilters) {
  let query = db.selectFrom("food_orders").where("food_orders.merchant_id", "=", merchantId);
  if (filters.status) query = query.where("food_orders.status", "=", filters.status);
  if (filters.delivery_type) query = query.where("food_orders.delivery_type", "=", filters.delivery_type);
  if (filters.branch !== undefined) query = query.where("food_orders.branch_id", "=", filters.branch);
  if (filters.created_after) query = query.where("food_orders.created_at", ">=", filters.created_after);
  if (filters.created_before) query = query.where("food_orders.created_at", "<=", filters.created_before);
  if (filters.q) {
    const q = filters.q;
    const pattern = like(q);
    const digits = q.replace(/[^\d]/g, "");
    query = query.where((eb) =>
      eb.or([
        eb("food_orders.number", "=", q.replace(/[\s-]/g, "").toUpperCase()),
        ...(/^#?\d{1,10}$/.test(q) ? [eb("food_orders.order_no", "=", Number(q.replace("#", "")))] : []),
        eb(sql<string>`lower(food_orders.customer_name)`, "like", sql<string>`${pattern} escape '\\'`),
        ...(digits.length >= 3
          ? [eb("food_orders.customer_phone", "like", sql<string>`${like(digits)} escape '\\'`)]
          : []),
      ]),
    );
  }
  return query;
}

export type OrderListRow = {
  id: number;
  number: string;
  order_no: number | null;
  status: FoodOrderStatus;
  delivery_type: FoodDeliveryType;
  branch_id: number;
  branch_en: string;
  branch_ar: string;
  customer_name: string;
  customer_phone: string;
  total: number;
  currency_code: string;
  gateway_code: string;
  scheduled_for: string | null;
  created_at: string;
  seen: boolean;
};

/** The merchant's orders matching the filters, newest first, one page of them, and how many match. */
export async function listOrders(
  db: DB,
  input: { merchantId: number; filters: OrderFilters; page: number; pageSize: number },
) {
  const [{ count }] = await filtered(db, input.merchantId, input.filters)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .execute();
  const rows = await filtered(db, input.merchantId, input.filters)
    .innerJoin("food_branches", "food_branches.id", "food_orders.branch_id")
    .select([
      "food_orders.id",
      "food_orders.number",
      "food_orders.order_no",
      "food_orders.status",
      "food_orders.delivery_type",
      "food_orders.branch_id",
      "food_branches.name_en as branch_en",
      "food_branches.name_ar as branch_ar",
      "food_orders.customer_name",
      "food_orders.customer_phone",
      "food_orders.total",
      "food_orders.currency_code",
      "food_orders.gateway_code",
      "food_orders.scheduled_for",
      "food_orders.created_at",
      "food_orders.seen_at",
    ])
    .orderBy("food_orders.id", "desc")
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute();
  return {
    count: Number(count),
    rows: rows.map(({ seen_at, ...row }): OrderListRow => ({ ...row, seen: seen_at !== null })),
  };
}

/** The merchant's branches, for the list's filter. */
export function listOrderBranches(db: DB, merchantId: number) {
  return db
    .selectFrom("food_branches")
    .select(["id", "name_en", "name_ar"])
    .where("merchant_id", "=", merchantId)
    .orderBy("id")
    .execute();
}

/** Orders staff have not opened yet (the side menu's Orders badge); orders still waiting for their payment are not the kitchen's yet. */
export async function countUnseenOrders(db: DB, merchantId: number) {
  const row = await db
    .selectFrom("food_orders")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("merchant_id", "=", merchantId)
    .where("seen_at", "is", null)
    .where("status", "!=", "pending_payment")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A user opened the order: it is no longer new to the merchant's staff. */
export async function markOrderSeen(db: DB, merchantId: number, id: number) {
  await db
    .updateTable("food_orders")
    .set({ seen_at: nowIso() })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("seen_at", "is", null)
    .execute();
}

export type OrderAddOn = { id: number; name_en: string; name_ar: string; price: number };
export type OrderOption = {
  group_id: number;
  group_en: string;
  group_ar: string;
  id: number;
  name_en: string;
  name_ar: string;
  price: number;
};

function parseJson<T>(value: string | null, fallback: T): T {
  if (!value) return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** An order as staff read it: lines, customer, address, branch, totals and its payment. */
export async function orderDetails(db: DB, merchantId: number, id: number) {
  const order = await db
    .selectFrom("food_orders")
    .innerJoin("food_branches", "food_branches.id", "food_orders.branch_id")
    .leftJoin("food_delivery_areas", "food_delivery_areas.id", "food_orders.delivery_area_id")
    .leftJoin("transactions", "transactions.id", "food_orders.transaction_id")
    .select([
      "food_orders.id",
      "food_orders.number",
      "food_orders.order_no",
      "food_orders.status",
      "food_orders.delivery_type",
      "food_orders.branch_id",
      "food_branches.name_en as branch_en",
      "food_branches.name_ar as branch_ar",
      "food_branches.phone as branch_phone",
      "food_delivery_areas.area as delivery_area",
      "food_orders.scheduled_for",
      "food_orders.subtotal",
      "food_orders.discount",
      "food_orders.delivery_charge",
      "food_orders.service_charge",
      "food_orders.total",
      "food_orders.currency_code",
      "food_orders.offer_code_id",
      "food_orders.customer_name",
      "food_orders.customer_email",
      "food_orders.customer_phone",
      "food_orders.address",
      "food_orders.lat",
      "food_orders.lng",
      "food_orders.gateway_code",
      "food_orders.transaction_id",
      "transactions.state as transaction_state",
      "food_orders.lang",
      "food_orders.feedback_rating",
      "food_orders.feedback_comment",
      "food_orders.seen_at",
      "food_orders.created_at",
      "food_orders.updated_at",
    ])
    .where("food_orders.merchant_id", "=", merchantId)
    .where("food_orders.id", "=", id)
    .executeTakeFirst();
  if (!order) return undefined;
  const lines = await db
    .selectFrom("food_order_lines")
    .select([
      "id",
      "item_id",
      "category_id",
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
  const voucher =
    order.offer_code_id === null
      ? undefined
      : await db
          .selectFrom("offer_codes")
          .select("code")
          .where("id", "=", order.offer_code_id)
          .where("merchant_id", "=", merchantId)
          .executeTakeFirst();
  return {
    ...order,
    voucher_code: voucher?.code ?? null,
    address: parseJson<Record<string, unknown> | null>(order.address, null),
    map_url: order.lat !== null && order.lng !== null ? mapLink(order.lat, order.lng) : null,
    lines: lines.map((line) => ({
      ...line,
      add_ons: parseJson<OrderAddOn[]>(line.add_ons, []),
      options: parseJson<OrderOption[]>(line.options, []),
    })),
  };
}

export type OrderDetails = NonNullable<Awaited<ReturnType<typeof orderDetails>>>;

/** Where the delivery address is on a map (opens the phone's map application). */
export function mapLink(lat: number, lng: number) {
  return `https://www.google.com/maps/search/?api=1&query=${lat},${lng}`;
}
