import { engineOf, writeTransaction, type DB } from "~/db/database.server";
import type { FoodOrderStatus } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { claimOfferCode, releaseOfferCode } from "~/domain/commerce/offer-codes.server";
import type { Actor } from "~/domain/identity/permissions";
import type { PlatformAddresses } from "~/domain/payments/attempts.server";
import { requestOperation, type OperationOutcome } from "~/domain/payments/operations.server";
import { returnPaymentOf } from "~/domain/payments/returns.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import type { OrderEvent, PaymentChange } from "~/domain/commerce/orders.server";
import { transitionTransaction, type TransitionEvent } from "~/domain/payments/transaction-state.server";
import { expireUnstartedPayment, noAttemptStarted, unstartedHoldsBefore } from "~/domain/payments/unpaid-holds.server";
import { nowIso } from "~/lib/clock.server";
import { money } from "~/lib/outcome";
import { VOUCHERS } from "./pricing.server";

/**
 * The kitchen's workflow: new → accepted → preparing → ready → out for delivery → delivered, or
 * ready → picked up; any order not yet handed over may be canceled (cancelOrder). An order waiting
 * for its payment becomes new only through its payment (the section's hook).
 */
export const ORDER_FLOW: Readonly<Record<FoodOrderStatus, readonly FoodOrderStatus[]>> = {
  pending_payment: [],
  new: ["accepted"],
  accepted: ["preparing"],
  preparing: ["ready"],
  ready: ["out_for_delivery", "picked_up"],
  out_for_delivery: ["delivered"],
  picked_up: [],
  delivered: [],
  canceled: [],
};

/** Orders still in the kitchen's hands may be canceled; handed over ones are done. */
export const CANCELABLE: readonly FoodOrderStatus[] = ["pending_payment", "new", "accepted", "preparing", "ready"];

/**
 * Gives an order's portions and voucher use back, once: only the write that clears `holds_stock`
 * returns them.
 */
async function releaseOrder(trx: DB, orderId: number) {
  const cleared = await trx
    .updateTable("food_orders")
    .set({ holds_stock: 0, updated_at: nowIso() })
    .where("id", "=", orderId)
    .where("holds_stock", "=", 1)
    .executeTakeFirst();
  if (Number(cleared.numUpdatedRows) !== 1) return false;
  const lines = await trx
    .selectFrom("food_order_lines")
    .select(["item_id", "quantity"])
    .where("order_id", "=", orderId)
    .execute();
  const byItem = new Map<number, number>();
  for (const line of lines) byItem.set(line.item_id, (byItem.get(line.item_id) ?? 0) + line.quantity);
  for (const [itemId, quantity] of [...byItem].sort(([a], [b]) => a - b)) {
    await trx
      .updateTable("food_items")
      .set((eb) => ({ quantity: eb("quantity", "+", quantity) }))
      .where("id", "=", itemId)
      .where("quantity", "is not", null)
      .execute();
  }
  const order = await trx
    .selectFrom("food_orders")
    .select("offer_code_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (order.offer_code_id !== null) await releaseOfferCode(trx, order.offer_code_id);
  return true;
}

/**
 * Takes an order's portions and voucher use again (a payment that completed after they were given
 * back), all or none: what was taken before one of them ran out is put back at once.
 */
async function retakeOrder(trx: DB, orderId: number) {
  const lines = await trx
    .selectFrom("food_order_lines")
    .select(["item_id", "quantity"])
    .where("order_id", "=", orderId)
    .execute();
  const byItem = new Map<number, number>();
  for (const line of lines) byItem.set(line.item_id, (byItem.get(line.item_id) ?? 0) + line.quantity);
  const taken: [number, number][] = [];
  const putBack = async () => {
    for (const [itemId, quantity] of taken) {
      await trx
        .updateTable("food_items")
        .set((eb) => ({ quantity: eb("quantity", "+", quantity) }))
        .where("id", "=", itemId)
        .where("quantity", "is not", null)
        .execute();
    }
  };
  for (const [itemId, quantity] of [...byItem].sort(([a], [b]) => a - b)) {
    const row = await trx.selectFrom("food_items").select("quantity").where("id", "=", itemId).executeTakeFirst();
    if (row?.quantity === null) continue;
    const took = await trx
      .updateTable("food_items")
      .set((eb) => ({ quantity: eb("quantity", "-", quantity) }))
      .where("id", "=", itemId)
      .where("quantity", ">=", quantity)
      .executeTakeFirst();
    if (Number(took.numUpdatedRows) !== 1) {
      await putBack();
      return false;
    }
    taken.push([itemId, quantity]);
  }
  const order = await trx
    .selectFrom("food_orders")
    .select("offer_code_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (order.offer_code_id !== null && !(await claimOfferCode(trx, VOUCHERS, order.offer_code_id, null)).ok) {
    await putBack();
    return false;
  }
  await trx.updateTable("food_orders").set({ holds_stock: 1 }).where("id", "=", orderId).execute();
  return true;
}

/** The order a transaction of the section pays (the commerce core's order book, section.server.ts). */
export function findOrderOfTransaction(trx: DB, transactionId: string) {
  return trx
    .selectFrom("food_orders")
    .select(["id", "merchant_id", "status", "holds_stock"])
    .where("transaction_id", "=", transactionId)
    .executeTakeFirst();
}

type PaidOrder = NonNullable<Awaited<ReturnType<typeof findOrderOfTransaction>>>;

/**
 * An order after its transaction's change (inside the same database transaction): a completed
 * payment (or cash on delivery chosen) makes the order new; a payment that ended unpaid cancels it and
 * gives its portions and voucher back. A payment that completes after they were given back takes them
 * again if they are still there; if not, or if staff canceled the order, it stays canceled, noted in
 * the audit log, and the payment goes back by itself (it must not throw for a payment). The whole payment given back
 * cancels an order not yet handed over. Answers `order.confirmed` when the order became new (the
 * order mail and the staff's alert follow) and `order.released` when its holds went back.
 */
export async function settleOrder(
  trx: DB,
  order: PaidOrder,
  payment: PaymentChange,
  change: TransitionEvent,
): Promise<OrderEvent | null> {
  if (payment === "completed") {
    if (order.status === "pending_payment") {
      await trx
        .updateTable("food_orders")
        .set({ status: "new", updated_at: nowIso() })
        .where("id", "=", order.id)
        .where("status", "=", "pending_payment")
        .execute();
      return "order.confirmed";
    }
    if (order.status === "canceled") {
      const staffCanceled = await trx
        .selectFrom("audit_log")
        .select("id")
        .where("object_type", "=", "food_order")
        .where("object_id", "=", String(order.id))
        .where("action", "=", "food_order_canceled")
        .executeTakeFirst();
      if (!staffCanceled && (await retakeOrder(trx, order.id))) {
        await trx
          .updateTable("food_orders")
          .set({ status: "new", updated_at: nowIso() })
          .where("id", "=", order.id)
          .execute();
        return "order.confirmed";
      }
      await recordAudit(trx, {
        merchantId: order.merchant_id,
        actor: "system",
        action: "food_order_paid_after_cancel",
        params: { orderId: order.id, amount: money(change.transaction.amount, change.transaction.currency_code) },
        objectType: "food_order",
        objectId: order.id,
      });
      await returnPaymentOf(trx, change, staffCanceled ? "order_canceled" : "sold_out");
    }
    return null;
  }
  if (payment === "ended" && order.status === "pending_payment") {
    await trx
      .updateTable("food_orders")
      .set({ status: "canceled", updated_at: nowIso() })
      .where("id", "=", order.id)
      .where("status", "=", "pending_payment")
      .execute();
    return (await releaseOrder(trx, order.id)) ? "order.released" : null;
  }
  // The whole payment given back (a refund or void from the transactions workspace): an order not yet
  // handed over is canceled, so the kitchen does not cook an order nobody pays for.
  if (payment === "returned" && CANCELABLE.includes(order.status)) {
    await trx
      .updateTable("food_orders")
      .set({ status: "canceled", updated_at: nowIso() })
      .where("id", "=", order.id)
      .where("status", "=", order.status)
      .execute();
    return (await releaseOrder(trx, order.id)) ? "order.released" : null;
  }
  return null;
}

/** The payment sweep: orders whose payment time is up are canceled through their transaction's expiry, each in its own database transaction. */
export async function expireUnpaidOrders(db: DB) {
  const due = await db
    .selectFrom("food_orders")
    .innerJoin("transactions", "transactions.id", "food_orders.transaction_id")
    .select(["food_orders.id", "food_orders.transaction_id"])
    .where("food_orders.status", "=", "pending_payment")
    .where("transactions.expiration_time", "<", nowIso())
    .limit(500)
    .execute();
  for (const order of due) {
    await writeTransaction(db, (trx) =>
      transitionTransaction(trx, order.transaction_id!, "expired", { kind: "expired" }, { from: PAYABLE_STATES }),
    );
  }
  const unstarted = await db
    .selectFrom("food_orders")
    .select(["id", "transaction_id"])
    .where("status", "=", "pending_payment")
    .where("holds_stock", "=", 1)
    .where("transaction_id", "is not", null)
    .where("created_at", "<", unstartedHoldsBefore())
    .where(noAttemptStarted("food_orders.transaction_id"))
    .orderBy("id")
    .limit(500)
    .execute();
  for (const order of unstarted)
    await writeTransaction(db, (trx) => expireUnstartedPayment(trx, order.transaction_id!));
  return due.length + unstarted.length;
}

/**
 * Portions of each dish sold (orders paid or cash on delivery, not canceled) and held (unpaid orders
 * still taking them), by dish id: the menu page shows them beside what is left.
 */
export async function soldAndHeldPortions(
  db: DB,
  merchantId: number,
): Promise<Map<number, { sold: number; held: number }>> {
  const lines = () =>
    db
      .selectFrom("food_order_lines")
      .innerJoin("food_orders", "food_orders.id", "food_order_lines.order_id")
      .select([
        "food_order_lines.item_id",
        (eb) => eb.fn.sum<number | string>("food_order_lines.quantity").as("portions"),
      ])
      .where("food_orders.merchant_id", "=", merchantId)
      .groupBy("food_order_lines.item_id");
  const [sold, held] = await Promise.all([
    lines().where("food_orders.status", "not in", ["pending_payment", "canceled"]).execute(),
    lines().where("food_orders.status", "=", "pending_payment").where("food_orders.holds_stock", "=", 1).execute(),
  ]);
  const counts = new Map<number, { sold: number; held: number }>();
  const entry = (id: number) => counts.get(id) ?? counts.set(id, { sold: 0, held: 0 }).get(id)!;
  for (const row of sold) entry(row.item_id).sold = Number(row.portions);
  for (const row of held) entry(row.item_id).held = Number(row.portions);
  return counts;
}

async function lockOrder(trx: DB, merchantId: number, id: number) {
  let query = trx.selectFrom("food_orders").selectAll().where("merchant_id", "=", merchantId).where("id", "=", id);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  return query.executeTakeFirst();
}

export type StatusOutcome =
  { ok: true; status: FoodOrderStatus; refunds?: OperationOutcome[] } | { ok: false; code: string };

/**
 * Staff move an order along the kitchen's workflow (ORDER_FLOW), or cancel it (cancelOrder). A
 * change from a stale page (the order moved meanwhile) is refused rather than applied twice.
 */
export async function changeOrderStatus(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; status: FoodOrderStatus; addresses: PlatformAddresses },
): Promise<StatusOutcome> {
  if (input.status === "canceled") return cancelOrder(db, input);
  return writeTransaction(db, async (trx): Promise<StatusOutcome> => {
    const order = await lockOrder(trx, input.merchantId, input.id);
    if (!order) return { ok: false, code: "api.not_found" };
    if (!ORDER_FLOW[order.status].includes(input.status)) return { ok: false, code: "food.errors.status_not_allowed" };
    if (input.status === "out_for_delivery" && order.delivery_type !== "delivery")
      return { ok: false, code: "food.errors.status_not_allowed" };
    if (input.status === "picked_up" && order.delivery_type === "delivery")
      return { ok: false, code: "food.errors.status_not_allowed" };
    await trx
      .updateTable("food_orders")
      .set({ status: input.status, updated_at: nowIso() })
      .where("id", "=", order.id)
      .where("status", "=", order.status)
      .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: { id: input.actor.id, username: input.actor.username },
      action: "food_order_status",
      params: { orderId: order.id, status: input.status },
      objectType: "food_order",
      objectId: order.id,
    });
    return { ok: true, status: input.status };
  });
}

/**
 * Staff cancel an order not yet handed over. An unpaid payment is canceled first, under its own row
 * lock (as a payment completing or the sweep takes it: transaction, then order), and its hook gives
 * the portions back; then, under the order's lock, the order is canceled and anything still held is
 * given back; a paid order is then refunded (an authorization voided) through the usual operations.
 */
export async function cancelOrder(
  db: DB,
  input: { merchantId: number; actor: Actor; id: number; addresses: PlatformAddresses },
): Promise<StatusOutcome> {
  const done = await writeTransaction(db, async (trx) => {
    const seen = await trx
      .selectFrom("food_orders")
      .select(["id", "status", "transaction_id"])
      .where("merchant_id", "=", input.merchantId)
      .where("id", "=", input.id)
      .executeTakeFirst();
    if (!seen) return { ok: false as const, code: "api.not_found" };
    if (!CANCELABLE.includes(seen.status)) return { ok: false as const, code: "food.errors.status_not_allowed" };
    const staff = { id: input.actor.id, username: input.actor.username };
    // Noted first: a payment completing after this cancel does not bring the order back.
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: staff,
      action: "food_order_canceled",
      params: { orderId: seen.id },
      objectType: "food_order",
      objectId: seen.id,
    });
    let refund: { transactionId: string; kind: "refund" | "void" } | null = null;
    if (seen.transaction_id) {
      const moved = await transitionTransaction(
        trx,
        seen.transaction_id,
        "canceled",
        { kind: "canceled", actor: staff },
        { from: PAYABLE_STATES },
      );
      if (!moved.ok) {
        const transaction = await trx
          .selectFrom("transactions")
          .select("state")
          .where("id", "=", seen.transaction_id)
          .executeTakeFirstOrThrow();
        if (transaction.state === "paid" || transaction.state === "authorized")
          refund = { transactionId: seen.transaction_id, kind: transaction.state === "authorized" ? "void" : "refund" };
      }
    }
    const order = await lockOrder(trx, input.merchantId, input.id);
    if (!order || (order.status !== "canceled" && !CANCELABLE.includes(order.status)))
      return { ok: false as const, code: "food.errors.status_not_allowed" };
    await trx
      .updateTable("food_orders")
      .set({ status: "canceled", updated_at: nowIso() })
      .where("id", "=", order.id)
      .execute();
    await releaseOrder(trx, order.id);
    return { ok: true as const, refund };
  });
  if (!done.ok) return done;
  const refunds: OperationOutcome[] = [];
  if (done.refund)
    refunds.push(
      await requestOperation(db, {
        merchantId: input.merchantId,
        actor: input.actor,
        transactionId: done.refund.transactionId,
        kind: done.refund.kind,
        addresses: input.addresses,
        reason: `order ${input.id} canceled`,
      }),
    );
  return { ok: true, status: "canceled", refunds };
}
