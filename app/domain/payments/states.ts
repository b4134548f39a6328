import type { TransactionState } from "~/db/schema";

/** Every state of a transaction (DESIGN §6); each set below is defined here and only here. */
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

/** A customer may still pay. */
export const PAYABLE_STATES: readonly TransactionState[] = ["created", "pending", "attempted"];

/** The customer has paid, been authorized, or chosen cash on delivery: nothing is left to pay. */
export const SETTLED_STATES: readonly TransactionState[] = ["paid", "authorized", "cod"];

/** A payment went through at some point, so there is a receipt (and a green QR frame) even after a full refund. */
export const RECEIPTED_STATES: readonly TransactionState[] = [...SETTLED_STATES, "refunded"];

/** Never paid: these may be deleted from the list (and restored). */
export const DELETABLE_STATES: readonly TransactionState[] = ["created", "pending", "attempted", "failed", "canceled", "expired", "invalid"];

/**
 * The changes of state the platform makes, from → to. transitionTransaction refuses any other.
 * An expired link still takes a payment the customer started before it expired.
 */
export const TRANSITIONS: Readonly<Record<TransactionState, readonly TransactionState[]>> = {
  created: ["pending", "attempted", "authorized", "paid", "cod", "canceled", "expired"],
  pending: ["attempted", "authorized", "paid", "cod", "canceled", "expired"],
  attempted: ["authorized", "paid", "cod", "canceled", "expired"],
  expired: ["authorized", "paid", "cod"],
  authorized: ["paid", "voided"],
  paid: ["refunded"],
  cod: [],
  failed: [],
  canceled: [],
  invalid: [],
  refunded: [],
  voided: [],
};
