import type { DB } from "~/db/database.server";
import type { MailRow } from "~/domain/messaging/mail-templates.server";
import { queueMail } from "~/domain/messaging/mail.server";
import { createNotifications } from "~/domain/messaging/notifications.server";
import { publishLive } from "~/lib/live.server";
import { env } from "~/lib/env.server";
import type { Language } from "~/lib/i18n";
import { money, word } from "~/lib/outcome";

export const ORDER_MAIL = "food_order_created";

/** Where staff open an order. */
export function orderPath(lang: Language, id: number) {
  return `/${lang}/food-ordering/orders/${id}`;
}

/** Where the customer finds their order by its number (the public confirmation page). */
export function confirmationPath(lang: Language, number: string) {
  return `/${lang}/new-menu/order-confirmation/${number}`;
}

/**
 * 'Order created' for the merchant's staff who opted in to order notifications (their user page),
 * written in the caller's database transaction: the notice exists exactly when the new order does.
 */
export async function notifyOrderCreated(trx: DB, order: { id: number; merchant_id: number }) {
  const users = await trx
    .selectFrom("users")
    .select("id")
    .where("merchant_id", "=", order.merchant_id)
    .where("receive_order_notification", "=", 1)
    .where("is_active", "=", 1)
    .where("kind", "=", "person")
    .execute();
  await createNotifications(trx, {
    merchantId: order.merchant_id,
    userIds: users.map((user) => user.id),
    kind: "order_created",
    lang: "en",
    link: orderPath("en", order.id),
  });
  // Everyone who sees orders has the Orders badge and the list brought up to date, opted in or not.
  await publishLive(trx, {
    merchantId: order.merchant_id,
    permission: "view_order",
    type: "orders_changed",
    data: { order_id: order.id },
  });
}

/**
 * The customer's order confirmation, in the order's language, with its order number and the link to
 * follow it (by the order's unguessable key); none without an e-mail address.
 */
export async function queueOrderMail(trx: DB, order: { id: number; merchant_id: number }) {
  const row = await trx
    .selectFrom("food_orders")
    .select([
      "id",
      "number",
      "order_no",
      "customer_name",
      "customer_email",
      "delivery_type",
      "total",
      "currency_code",
      "scheduled_for",
      "lang",
    ])
    .where("id", "=", order.id)
    .where("merchant_id", "=", order.merchant_id)
    .executeTakeFirst();
  if (!row?.customer_email) return;
  const base = (env().BASE_URL ?? "").replace(/\/$/, "");
  const rows: MailRow[] = [
    ["food_orders.mail.number", String(row.order_no ?? row.number)],
    ["food_orders.mail.delivery_type", word(`food_orders.delivery_types.${row.delivery_type}`)],
    ["food_orders.mail.total", money(row.total, row.currency_code)],
  ];
  await queueMail(trx, {
    merchantId: order.merchant_id,
    to: row.customer_email,
    template: ORDER_MAIL,
    lang: row.lang,
    params: {
      name: row.customer_name || null,
      number: String(row.order_no ?? row.number),
      link: `${base}${confirmationPath(row.lang, row.number)}`,
    },
    rows,
  });
}

/** What happens when an order becomes new: staff are told and the customer gets the confirmation. */
export async function onOrderCreated(trx: DB, order: { id: number; merchant_id: number }) {
  await notifyOrderCreated(trx, order);
  await queueOrderMail(trx, order);
}
