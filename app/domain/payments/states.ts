import type { TransactionState } from "~/db/schema";

export const TRANSACTION_STATES: readonly TransactionState[] = [
  "created",
  "pending",
  "attempted",
  "authorized",
  "paid",
  "cod",
  "failed",
  "canceled",
  "expired",
  "invalid",
  "refunded",
  "voided",
];

/** Never paid: these may be deleted from the list (and restored). */
export const DELETABLE_STATES: readonly TransactionState[] = ["created", "pending", "attempted", "failed", "canceled", "expired", "invalid"];
