import type { SectionServer } from "../contract";
import { expireUnpaidOrders, onOrderTransition } from "./domain/orders.server";

export const EXPIRE_ORDERS_JOB = "food_expire_unpaid_orders";

export const sectionServer: SectionServer = {
  key: "food_ordering",
  onTransition: onOrderTransition,
  jobs: { [EXPIRE_ORDERS_JOB]: async (db) => void (await expireUnpaidOrders(db)) },
  schedules: { expire_unpaid_orders: { type: EXPIRE_ORDERS_JOB, everyMs: 30_000 } },
};
