import { createElement } from "react";
import { orderTransitions } from "~/domain/commerce/orders.server";
import type { SectionServer } from "../contract";
import { addMs, now } from "~/lib/clock.server";
import { removeStaleCarts } from "./domain/cart.server";
import { DEMO_SHOP_JOB, seedDemoShop } from "./domain/demo-shop.server";
import { emptyCartOfPaidOrder, expireUnpaidOrders, findOrderOfTransaction, settleOrder } from "./domain/orders.server";
import { ORDER_EXTRA_KEYS, orderDetails, serializeOrder } from "./presentation/transaction-details.server";
import { listPageView } from "./routes/public/list-view.server";
import { ProductListPage } from "./routes/public/product-list";

export const EXPIRE_ORDERS_JOB = "catalogue_expire_unpaid_orders";
export const REMOVE_STALE_CARTS_JOB = "catalogue_remove_stale_carts";
/** A visitor's cart untouched this long is forgotten. */
const CART_LIFETIME_MS = 30 * 86_400_000;

export const sectionServer: SectionServer = {
  key: "catalogue",
  // The product list, where every purchase starts, is rendered without the router (decision 0011).
  directPages: [
    {
      path: /^\/(en|ar)\/catalogue\/product-list\/?$/,
      routeId: "catalogue-public-list",
      render: async ({ db, url, cookieHeader, lang }) => {
        const page = await listPageView(db, url, cookieHeader, lang);
        return {
          status: 200,
          title: lang === "ar" ? "المنتجات" : "Products",
          body: createElement(ProductListPage, { page, path: url.pathname + url.search }),
        };
      },
    },
  ],
  onTransition: orderTransitions({
    findByTransaction: findOrderOfTransaction,
    settle: settleOrder,
    on: { "order.confirmed": emptyCartOfPaidOrder },
  }),
  jobs: {
    [EXPIRE_ORDERS_JOB]: async (db) => void (await expireUnpaidOrders(db)),
    [REMOVE_STALE_CARTS_JOB]: (db) => removeStaleCarts(db, addMs(now(), -CART_LIFETIME_MS).toISOString()),
    [DEMO_SHOP_JOB]: (db, payload: { merchantId: number }) => seedDemoShop(db, payload),
  },
  schedules: {
    expire_unpaid_orders: { type: EXPIRE_ORDERS_JOB, everyMs: 30_000 },
    remove_stale_carts: { type: REMOVE_STALE_CARTS_JOB, everyMs: 86_400_000 },
  },
  transactions: {
    details: orderDetails,
    serialize: serializeOrder,
    extraKeys: ORDER_EXTRA_KEYS,
    // The result page's "Follow your order": the order's confirmation above the (now empty) cart.
    followUrl: async (db, transactionId, lang) => {
      const order = await db
        .selectFrom("catalogue_orders")
        .select(["number", "merchant_id", "status"])
        .where("transaction_id", "=", transactionId)
        .executeTakeFirst();
      return order ? `/${lang}/catalogue/cart?merchant=${order.merchant_id}&order=${order.number}` : null;
    },
  },
};
