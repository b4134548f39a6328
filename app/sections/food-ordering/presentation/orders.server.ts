import QRCode from "qrcode";
import type { RouterContextProvider } from "react-router";
import type { DB } from "~/db/database.server";
import type { FoodOrderStatus } from "~/db/schema";
import type { SessionUser } from "~/domain/identity/users.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { gatewayNameParam } from "~/domain/payments/gateway-settings.server";
import type { OperationOutcome } from "~/domain/payments/operations.server";
import { kuwaitAreaIn } from "~/domain/payments/kuwait-areas";
import { formatListDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { toDecimalString, formatAmount } from "~/lib/money";
import { describe } from "~/presentation/texts.server";
import { messageOf } from "~/web/outcomes.server";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser, userOnPlugin } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import type { OrderDetails, OrderListRow } from "../domain/order-list.server";
import { orderQrContent } from "../domain/order-qr.server";
import { CANCELABLE, ORDER_FLOW } from "../domain/orders.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The bearer (or Api-Key) user of the orders API with a permission; a merchant without the
 * section's feature answers 404, as if it did not exist.
 */
export async function requireOrdersApi(
  request: Request,
  context: Context,
  permission: "view_order" | "change_order" | "scan_order",
  feature: "orders" | "fulfillment" = "orders",
) {
  const { user: person } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, person.merchantId), "food_ordering", feature))
    throw apiDetail(request, "api.not_found", 404);
  const user = userOnPlugin(person, "food_ordering");
  if (!user) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  return { user: user as SessionUser, db, lang: apiLanguage(request) };
}

/** A positive integer id from the path, or null. */
export function orderIdOf(value: unknown) {
  const text = typeof value === "string" ? value.trim() : "";
  return /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** The states staff may move an order to from where it is (the workflow's next steps that fit its delivery type). */
export function nextStatuses(order: { status: FoodOrderStatus; delivery_type: string }): FoodOrderStatus[] {
  return ORDER_FLOW[order.status].filter((status) =>
    status === "out_for_delivery"
      ? order.delivery_type === "delivery"
      : status === "picked_up"
        ? order.delivery_type !== "delivery"
        : true,
  );
}

export function canCancel(order: { status: FoodOrderStatus }) {
  return CANCELABLE.includes(order.status);
}

/** A row of the orders list as the API answers it. */
export function serializeOrderRow(row: OrderListRow, lang: Language) {
  return {
    id: row.id,
    number: row.number,
    order_no: row.order_no,
    status: row.status,
    status_display: describe(`food_orders.statuses.${row.status}`, undefined, lang),
    delivery_type: row.delivery_type,
    branch: row.branch_id,
    branch_name: lang === "ar" ? row.branch_ar : row.branch_en,
    customer_name: row.customer_name,
    customer_phone: row.customer_phone,
    total: toDecimalString(row.total, row.currency_code),
    currency_code: row.currency_code,
    gateway_code: row.gateway_code,
    scheduled_for: row.scheduled_for,
    created: row.created_at,
    seen: row.seen,
  };
}

/** An order with everything staff read, as the API answers it. */
export function serializeOrder(order: OrderDetails, lang: Language) {
  const amount = (minor: number) => toDecimalString(minor, order.currency_code);
  return {
    id: order.id,
    number: order.number,
    order_no: order.order_no,
    status: order.status,
    status_display: describe(`food_orders.statuses.${order.status}`, undefined, lang),
    next_statuses: nextStatuses(order),
    cancelable: canCancel(order),
    delivery_type: order.delivery_type,
    branch: { id: order.branch_id, name: lang === "ar" ? order.branch_ar : order.branch_en, phone: order.branch_phone },
    delivery_area: order.delivery_area,
    scheduled_for: order.scheduled_for,
    customer_name: order.customer_name,
    customer_email: order.customer_email,
    customer_phone: order.customer_phone,
    address: order.address,
    location: order.lat !== null && order.lng !== null ? { lat: order.lat, lng: order.lng } : null,
    map_url: order.map_url,
    lines: order.lines.map((line) => ({
      menu_item: line.item_id,
      category_id: line.category_id,
      name: lang === "ar" ? line.name_ar : line.name_en,
      size: lang === "ar" ? line.size_ar : line.size_en,
      add_ons: line.add_ons.map((addOn) => ({
        id: addOn.id,
        name: lang === "ar" ? addOn.name_ar : addOn.name_en,
        price: amount(addOn.price),
      })),
      options: line.options.map((option) => ({
        group: lang === "ar" ? option.group_ar : option.group_en,
        choice: lang === "ar" ? option.name_ar : option.name_en,
        price: amount(option.price),
      })),
      special_instructions: line.special_instructions,
      quantity: line.quantity,
      unit_price: amount(line.unit_price),
      line_total: amount(line.line_total),
    })),
    voucher: order.voucher_code,
    subtotal: amount(order.subtotal),
    discount: amount(order.discount),
    delivery_charge: amount(order.delivery_charge),
    service_charge: amount(order.service_charge),
    total: amount(order.total),
    currency_code: order.currency_code,
    payment: { gateway_code: order.gateway_code, transaction_id: order.transaction_id, state: order.transaction_state },
    feedback:
      order.feedback_rating === null ? null : { rating: order.feedback_rating, comment: order.feedback_comment },
    created: order.created_at,
    updated: order.updated_at,
  };
}

/** The order as the details page shows it, in the reader's language (amounts and times formatted). */
export async function presentOrder(db: DB, order: OrderDetails, lang: Language) {
  const money = (minor: number) => formatAmount(minor, order.currency_code, lang);
  const qr = await orderQrContent(db, order.id);
  // The method by the name customers saw (KNET, Cash on delivery), in the reader's language.
  const { merchant_id: merchantId } = await db
    .selectFrom("food_orders")
    .select("merchant_id")
    .where("id", "=", order.id)
    .executeTakeFirstOrThrow();
  const method = await gatewayNameParam(db, merchantId, order.gateway_code);
  return {
    id: order.id,
    orderNo: order.order_no,
    status: order.status,
    deliveryType: order.delivery_type,
    branch: lang === "ar" ? order.branch_ar : order.branch_en,
    area: order.delivery_area ? kuwaitAreaIn(order.delivery_area, lang) : null,
    scheduledFor: order.scheduled_for ? formatListDateTime(order.scheduled_for, lang) : null,
    created: formatListDateTime(order.created_at, lang),
    customer: { name: order.customer_name, email: order.customer_email, phone: order.customer_phone },
    address: order.address ? addressLines(order.address) : [],
    mapUrl: order.map_url,
    lines: order.lines.map((line) => ({
      id: line.id,
      name: lang === "ar" ? line.name_ar : line.name_en,
      size: lang === "ar" ? line.size_ar : line.size_en,
      addOns: line.add_ons.map((addOn) => (lang === "ar" ? addOn.name_ar : addOn.name_en)),
      options: line.options.map(
        (option) =>
          `${lang === "ar" ? option.group_ar : option.group_en}: ${lang === "ar" ? option.name_ar : option.name_en}`,
      ),
      instructions: line.special_instructions,
      quantity: line.quantity,
      unitPrice: money(line.unit_price),
      total: money(line.line_total),
    })),
    voucher: order.voucher_code,
    totals: {
      subtotal: money(order.subtotal),
      discount: order.discount ? money(order.discount) : null,
      deliveryCharge: order.delivery_charge ? money(order.delivery_charge) : null,
      serviceCharge: order.service_charge ? money(order.service_charge) : null,
      total: money(order.total),
    },
    payment: {
      gateway: lang === "ar" ? method.ar : method.en,
      transactionId: order.transaction_id,
      state: order.transaction_state,
    },
    next: nextStatuses(order),
    cancelable: canCancel(order),
    qr,
    qrImage: `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(qr, { type: "svg", errorCorrectionLevel: "M", margin: 1 })).toString("base64")}`,
  };
}

export type PresentedOrder = Awaited<ReturnType<typeof presentOrder>>;

/** The customer's address fields, as lines to read (the public checkout's field names). */
function addressLines(address: Record<string, unknown>) {
  return Object.entries(address)
    .filter(
      ([name, value]) =>
        name !== "delivery_location" &&
        (typeof value === "string" || typeof value === "number") &&
        String(value).trim() !== "",
    )
    .map(([name, value]) => ({ name, value: String(value) }));
}

/** What each refund of a canceled order came to, in the reader's language (sent, waiting for approval, refused). */
export function refundMessages(refunds: readonly OperationOutcome[] | undefined, lang: Language) {
  return (refunds ?? []).map((refund) => ({ ok: refund.ok, message: messageOf(refund, lang) }));
}
