import type { SectionServer } from "../contract";
import { DEMO_FOOD_JOB, seedDemoFood } from "./domain/demo-food.server";
import { expireUnpaidOrders, onOrderTransition } from "./domain/orders.server";

export const EXPIRE_ORDERS_JOB = "food_expire_unpaid_orders";

export const sectionServer: SectionServer = {
  key: "food_ordering",
  onTransition: onOrderTransition,
  jobs: {
    [EXPIRE_ORDERS_JOB]: async (db) => void (await expireUnpaidOrders(db)),
    [DEMO_FOOD_JOB]: (db, payload: { merchantId: number }) => seedDemoFood(db, payload),
  },
  schedules: { expire_unpaid_orders: { type: EXPIRE_ORDERS_JOB, everyMs: 30_000 } },
};
