import type { DB } from "~/db/database.server";
import type { TransitionEvent } from "~/domain/payments/transaction-state.server";

/**
 * What a change of its transaction means for the order it pays, the same for every section that sells:
 * - `completed`: a payment completed (paid, authorized) or cash on delivery was chosen;
 * - `attempt_failed`: one attempt failed and the link stays payable;
 * - `ended`: the transaction ended unpaid (expired, canceled, failed, invalid);
 * - `returned`: the whole payment went back (refunded, voided).
 */
export type PaymentChange = "completed" | "attempt_failed" | "ended" | "returned";

export function paymentChangeOf({ to, cause }: Pick<TransitionEvent, "to" | "cause">): PaymentChange | null {
  if (cause.kind === "payment" && (to === "paid" || to === "authorized" || to === "cod")) return "completed";
  if (cause.kind === "attempt_failed") return "attempt_failed";
  if (to === "expired" || to === "canceled" || to === "failed" || to === "invalid") return "ended";
  if (to === "refunded" || to === "voided") return "returned";
  return null;
}

/**
 * What became of an order after its payment's change, as the section that owns it is told:
 * `order.confirmed` when it is the merchant's to fulfil (paid, or cash on delivery), `order.released`
 * when it ended and what it held (portions, units, a code's use) went back.
 */
export type OrderEvent = "order.confirmed" | "order.released";

export type SoldOrder = { id: number; merchant_id: number };

/** How a section's orders plug into the commerce core. */
export type OrderBook<Order extends SoldOrder> = {
  /** The order a transaction pays, if it pays one. */
  findByTransaction(trx: DB, transactionId: string): Promise<Order | undefined>;
  /** Moves the order after its payment's change (its status, what it holds) and says what became of it. */
  settle(trx: DB, order: Order, change: PaymentChange, event: TransitionEvent): Promise<OrderEvent | null>;
  /** What the section does once an order is confirmed or released. */
  on?: Partial<Record<OrderEvent, (trx: DB, order: Order) => Promise<void>>>;
};

/**
 * The `onTransition` of a section that sells orders: inside the transaction's own database
 * transaction, finds the order the transaction pays, lets the section settle it, then tells the
 * section's declared handlers `order.confirmed` or `order.released`. Nothing is registered at import.
 */
export function orderTransitions<Order extends SoldOrder>(book: OrderBook<Order>) {
  return async (trx: DB, event: TransitionEvent) => {
    const change = paymentChangeOf(event);
    if (!change) return;
    const order = await book.findByTransaction(trx, event.transaction.id);
    if (!order) return;
    const happened = await book.settle(trx, order, change, event);
    if (happened) await book.on?.[happened]?.(trx, order);
  };
}
