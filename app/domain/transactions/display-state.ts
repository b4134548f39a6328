import type { TransactionState } from "~/db/schema";
import { TRANSACTION_STATES } from "~/domain/payments/states";

/**
 * The state people read (docs/decisions/0019): the stored state, except that a paid transaction
 * some of whose money was given back reads "Partially refunded". A full refund already moves the
 * stored state to `refunded`. The API keeps `state` as stored and adds this as `display_state`.
 */
export type DisplayState = TransactionState | "partially_refunded";

export const PARTIALLY_REFUNDED = "partially_refunded" as const;

/** Every state a list can show and filter by, in the order the filter offers them. */
export const DISPLAY_STATES: readonly DisplayState[] = TRANSACTION_STATES.flatMap((state): DisplayState[] =>
  state === "paid" ? [state, PARTIALLY_REFUNDED] : [state],
);

export function displayStateOf(row: { state: TransactionState; refunded_amount: number }): DisplayState {
  return row.state === "paid" && Number(row.refunded_amount) > 0 ? PARTIALLY_REFUNDED : row.state;
}

/**
 * The status tabs above every transactions list: each sets the state filter to these states.
 * "Paid" is the stored state (money received, some perhaps given back); "Refunded" is any money
 * given back, in full or in part.
 */
export const STATUS_TABS: readonly { key: string; states: readonly DisplayState[] }[] = [
  { key: "all", states: [] },
  { key: "paid", states: ["paid"] },
  { key: "pending", states: ["created", "pending", "attempted"] },
  { key: "failed", states: ["failed"] },
  { key: "refunded", states: ["refunded", PARTIALLY_REFUNDED] },
];
