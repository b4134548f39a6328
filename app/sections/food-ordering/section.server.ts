import { can } from "~/domain/identity/permissions";
import { createElement } from "react";
import { orderTransitions } from "~/domain/commerce/orders.server";
import type { SectionServer } from "../contract";
import { addMs, now } from "~/lib/clock.server";
import { removeStaleCarts } from "./domain/cart.server";
import { MenuPage } from "./routes/public/menu";
import { menuPageView } from "./routes/public/menu-view.server";
import { DEMO_FOOD_JOB, seedDemoFood } from "./domain/demo-food.server";
import { countUnseenOrders } from "./domain/order-list.server";
import { ORDER_MAIL, onOrderCreated } from "./domain/order-notifications.server";
import { expireUnpaidOrders, findOrderOfTransaction, settleOrder } from "./domain/orders.server";

export const EXPIRE_ORDERS_JOB = "food_expire_unpaid_orders";
export const REMOVE_STALE_CARTS_JOB = "food_remove_stale_carts";
/** A visitor's cart untouched this long is forgotten. */
const CART_LIFETIME_MS = 30 * 86_400_000;

export const sectionServer: SectionServer = {
  key: "food_ordering",
  // The public menu, the page every order starts from, is rendered without the router (decision 0011).
  directPages: [
    {
      path: /^\/(en|ar)\/new-menu\/?$/,
      routeId: "food-public-menu",
      render: async ({ db, url, cookieHeader, lang }) => {
        const request = new Request(url, { headers: cookieHeader ? { Cookie: cookieHeader } : {} });
        const page = await menuPageView(db, request, lang);
        return {
          status: 200,
          title: lang === "ar" ? "القائمة" : "Menu",
          body: createElement(MenuPage, { page, path: url.pathname + url.search }),
        };
      },
    },
  ],
  onTransition: orderTransitions({
    findByTransaction: findOrderOfTransaction,
    settle: settleOrder,
    // An order that becomes new tells the merchant's staff who opted in and mails the customer.
    on: { "order.confirmed": onOrderCreated },
  }),
  jobs: {
    [EXPIRE_ORDERS_JOB]: async (db) => void (await expireUnpaidOrders(db)),
    [REMOVE_STALE_CARTS_JOB]: (db) => removeStaleCarts(db, addMs(now(), -CART_LIFETIME_MS).toISOString()),
    [DEMO_FOOD_JOB]: (db, payload: { merchantId: number }) => seedDemoFood(db, payload),
  },
  schedules: {
    expire_unpaid_orders: { type: EXPIRE_ORDERS_JOB, everyMs: 30_000 },
    remove_stale_carts: { type: REMOVE_STALE_CARTS_JOB, everyMs: 86_400_000 },
  },
  transactions: {
    // The result page's "Follow your order": the order's confirmation and state page.
    followUrl: async (db, transactionId, lang) => {
      const order = await db
        .selectFrom("food_orders")
        .select("number")
        .where("transaction_id", "=", transactionId)
        .executeTakeFirst();
      return order ? `/${lang}/new-menu/order-confirmation/${order.number}` : null;
    },
  },
  mailTemplates: { [ORDER_MAIL]: { audience: "customer", named: "name", action: "link" } },
  /** The Orders item's badge: orders nobody of the merchant has opened yet. */
  async menuCounts(db, { merchantId, user, features }) {
    const counts: Record<string, number> = {};
    if (features.includes("orders") && can(user, "view_order")) counts.orders = await countUnseenOrders(db, merchantId);
    return counts;
  },
};
