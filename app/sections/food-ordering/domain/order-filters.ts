import type { FoodDeliveryType, FoodOrderStatus } from "~/db/schema";

/** The orders list's choices, shared by its page (the browser too), the API and the query parser. */
export const ORDER_STATUSES: readonly FoodOrderStatus[] = [
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
export const DELIVERY_TYPES: readonly FoodDeliveryType[] = ["pickup", "delivery", "catering"];
export const ORDER_PAGE_SIZES = [10, 25, 50, 100] as const;
export const ORDER_FILTER_NAMES = [
  "status",
  "delivery_type",
  "branch",
  "created_after",
  "created_before",
  "q",
] as const;
