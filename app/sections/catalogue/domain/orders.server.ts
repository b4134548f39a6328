import { writeTransaction, type DB } from "~/db/database.server";
import type { CatalogueOrderStatus } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { claimOfferCode, releaseOfferCode } from "~/domain/commerce/offer-codes.server";
import { returnPaymentOf } from "~/domain/payments/returns.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import type { OrderEvent, PaymentChange } from "~/domain/commerce/orders.server";
import { transitionTransaction, type TransitionEvent } from "~/domain/payments/transaction-state.server";
import { expireUnstartedPayment, noAttemptStarted, unstartedHoldsBefore } from "~/domain/payments/unpaid-holds.server";
import { nowIso } from "~/lib/clock.server";
import { money } from "~/lib/outcome";
import { emptyCartOfOrder } from "./cart.server";
import { DISCOUNTS } from "./pricing.server";
import { takeUnits } from "./stock.server";

/*
 * An order's units are reserved when it is placed and settled by its payment (decision 0025):
 * a completed payment keeps them (the order is paid: inventory was decremented once, at checkout);
 * an expired hold, a canceled transaction or a voided authorization gives them back, once — only the
 * write that clears `holds_stock` returns them. A failed attempt keeps them: the link stays payable
 * until the hold ends, and a retry must not charge for goods that are gone. Only lines whose units
 * were taken (`reserved`) are given back or taken again, whatever the product's stock became since.
 */

/** The units an order's reserved lines took, by product, in product id order. */
async function unitsOf(trx: DB, orderId: number) {
  const lines = await trx
    .selectFrom("catalogue_order_lines")
    .select(["product_id", "quantity"])
    .where("order_id", "=", orderId)
    .where("reserved", "=", 1)
    .execute();
  const byProduct = new Map<number, number>();
  for (const line of lines) byProduct.set(line.product_id, (byProduct.get(line.product_id) ?? 0) + line.quantity);
  return [...byProduct].sort(([a], [b]) => a - b);
}

/**
 * The units an unpaid order of the merchant still holds, by product id (none when it is paid, ended
 * or unknown): the visitor who placed it may count them as theirs while checking out again.
 */
export async function heldUnitsOf(
  db: DB,
  merchantId: number,
  number: string | null | undefined,
): Promise<Map<number, number>> {
  if (!number) return new Map();
  const order = await db
    .selectFrom("catalogue_orders")
    .select(["id", "status", "holds_stock"])
    .where("merchant_id", "=", merchantId)
    .where("number", "=", number)
    .executeTakeFirst();
  if (!order || order.status !== "pending_payment" || !order.holds_stock) return new Map();
  return new Map(await unitsOf(db, order.id));
}

async function giveUnitsBack(trx: DB, units: [number, number][]) {
  for (const [productId, quantity] of units) {
    await trx
      .updateTable("catalogue_products")
      .set((eb) => ({ inventory: eb("inventory", "+", quantity) }))
      .where("id", "=", productId)
      .where("inventory", "is not", null)
      .execute();
  }
}

/** Gives an order's reserved units and its discount use back, once. */
export async function releaseOrder(trx: DB, orderId: number) {
  const cleared = await trx
    .updateTable("catalogue_orders")
    .set({ holds_stock: 0, updated_at: nowIso() })
    .where("id", "=", orderId)
    .where("holds_stock", "=", 1)
    .executeTakeFirst();
  if (Number(cleared.numUpdatedRows) !== 1) return false;
  await giveUnitsBack(trx, await unitsOf(trx, orderId));
  const order = await trx
    .selectFrom("catalogue_orders")
    .select("offer_code_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (order.offer_code_id !== null) await releaseOfferCode(trx, order.offer_code_id);
  return true;
}

/**
 * Takes an order's units and discount use again (a payment that completed after they were given
 * back), all or none: what was taken before one ran out is put back at once. Only the lines that
 * checkout reserved are taken again; a product that became unlimited since takes none, and its
 * lines are no longer reserved (nothing of them is given back later).
 */
async function retakeOrder(trx: DB, orderId: number) {
  const taken: [number, number][] = [];
  const nothingTaken: number[] = [];
  for (const [productId, quantity] of await unitsOf(trx, orderId)) {
    const outcome = await takeUnits(trx, productId, quantity);
    if (!outcome.ok) {
      await giveUnitsBack(trx, taken);
      return false;
    }
    if (outcome.taken) taken.push([productId, quantity]);
    else nothingTaken.push(productId);
  }
  const order = await trx
    .selectFrom("catalogue_orders")
    .select("offer_code_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (order.offer_code_id !== null && !(await claimOfferCode(trx, DISCOUNTS, order.offer_code_id, null)).ok) {
    await giveUnitsBack(trx, taken);
    return false;
  }
  if (nothingTaken.length)
    await trx
      .updateTable("catalogue_order_lines")
      .set({ reserved: 0 })
      .where("order_id", "=", orderId)
      .where("product_id", "in", nothingTaken)
      .execute();
  await trx.updateTable("catalogue_orders").set({ holds_stock: 1 }).where("id", "=", orderId).execute();
  return true;
}

/**
 * Writes what staff read of the order on its transaction's `extra` (its status, whether it was paid
 * when its units were gone), so that the transaction's details and API show it (transaction-details.server.ts).
 */
async function noteOnTransaction(
  trx: DB,
  transactionId: string,
  values: { status: CatalogueOrderStatus; paid_without_stock?: boolean },
) {
  const row = await trx.selectFrom("transactions").select("extra").where("id", "=", transactionId).executeTakeFirst();
  if (!row?.extra) return;
  let extra: Record<string, unknown>;
  try {
    extra = JSON.parse(row.extra) as Record<string, unknown>;
  } catch {
    return;
  }
  if (!extra || typeof extra !== "object" || typeof extra.order !== "string") return;
  await trx
    .updateTable("transactions")
    .set({ extra: JSON.stringify({ ...extra, ...values }) })
    .where("id", "=", transactionId)
    .execute();
}

/** Moves an order from the status it was read in to another, telling its transaction; false when someone moved it first. */
async function moveOrder(
  trx: DB,
  order: { id: number; status: CatalogueOrderStatus },
  transactionId: string | null,
  to: CatalogueOrderStatus,
) {
  const moved = await trx
    .updateTable("catalogue_orders")
    .set({ status: to, updated_at: nowIso() })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  if (transactionId) await noteOnTransaction(trx, transactionId, { status: to });
  return true;
}

/** The order a transaction of the section pays (the commerce core's order book, section.server.ts). */
export function findOrderOfTransaction(trx: DB, transactionId: string) {
  return trx
    .selectFrom("catalogue_orders")
    .select(["id", "merchant_id", "number", "status", "holds_stock", "cart_token"])
    .where("transaction_id", "=", transactionId)
    .executeTakeFirst();
}

type PaidOrder = NonNullable<Awaited<ReturnType<typeof findOrderOfTransaction>>>;

/**
 * An order after its transaction's change, inside the same database transaction. A completed
 * payment makes the order paid, keeping its units (`order.confirmed`); one that completes after they
 * were given back takes them again if they are still there, else the order stays canceled, the
 * audit log and the transaction's details say so, and the payment goes back by itself (the hook must
 * not throw for a payment). A failed attempt changes nothing: the units stay held while the link is payable. An
 * expired or canceled transaction ends the order and gives them back (`order.released`); a voided
 * authorization does too. A refund keeps them: the goods may have left.
 */
export async function settleOrder(
  trx: DB,
  order: PaidOrder,
  payment: PaymentChange,
  change: TransitionEvent,
): Promise<OrderEvent | null> {
  const { to } = change;
  const transactionId = change.transaction.id;
  if (payment === "completed" && (to === "paid" || to === "authorized")) {
    if (order.status === "paid") return null;
    if (order.holds_stock || (await retakeOrder(trx, order.id))) {
      await moveOrder(trx, order, transactionId, "paid");
      return "order.confirmed";
    }
    if (order.status === "pending_payment")
      await trx
        .updateTable("catalogue_orders")
        .set({ status: "canceled", updated_at: nowIso() })
        .where("id", "=", order.id)
        .execute();
    await noteOnTransaction(trx, transactionId, { status: "canceled", paid_without_stock: true });
    await recordAudit(trx, {
      merchantId: order.merchant_id,
      actor: "system",
      action: "catalogue_order_paid_without_stock",
      params: {
        orderId: order.id,
        number: order.number,
        amount: money(change.transaction.amount, change.transaction.currency_code),
      },
      objectType: "catalogue_order",
      objectId: order.id,
    });
    await returnPaymentOf(trx, change, "sold_out");
    return null;
  }
  // A failed attempt keeps the hold: the customer may retry until the link expires.
  if (payment === "attempt_failed") return null;
  if ((payment === "ended" && order.status === "pending_payment") || (to === "voided" && order.status === "paid")) {
    if ((await moveOrder(trx, order, transactionId, "canceled")) && (await releaseOrder(trx, order.id)))
      return "order.released";
  }
  return null;
}

/** A successful payment clears the cart the order was placed from (public spec §4). */
export async function emptyCartOfPaidOrder(trx: DB, order: PaidOrder) {
  await emptyCartOfOrder(trx, order.cart_token, order.number);
}

/**
 * The sweep (every 30 seconds): unpaid orders whose hold is over end through their transaction's
 * expiry, each in its own database transaction. An order whose transaction can no longer expire
 * (already ended otherwise) is ended directly, so the sweep never meets it again. An order whose
 * customer has not started a payment within UNPAID_HOLD_MS ends too, unless an attempt started
 * meanwhile (expireUnstartedPayment looks again under the transaction's lock).
 */
export async function expireUnpaidOrders(db: DB) {
  const due = await db
    .selectFrom("catalogue_orders")
    .select(["id", "transaction_id"])
    .where("status", "=", "pending_payment")
    .where("hold_until", "<", nowIso())
    .orderBy("hold_until")
    .limit(500)
    .execute();
  for (const order of due) {
    await writeTransaction(db, async (trx) => {
      const moved = order.transaction_id
        ? await transitionTransaction(
            trx,
            order.transaction_id,
            "expired",
            { kind: "expired" },
            { from: PAYABLE_STATES },
          )
        : { ok: false };
      if (moved.ok) return;
      if (await moveOrder(trx, { id: order.id, status: "pending_payment" }, order.transaction_id, "canceled"))
        await releaseOrder(trx, order.id);
    });
  }
  const unstarted = await db
    .selectFrom("catalogue_orders")
    .select(["id", "transaction_id"])
    .where("status", "=", "pending_payment")
    .where("holds_stock", "=", 1)
    .where("transaction_id", "is not", null)
    .where("created_at", "<", unstartedHoldsBefore())
    .where(noAttemptStarted("catalogue_orders.transaction_id"))
    .orderBy("id")
    .limit(500)
    .execute();
  for (const order of unstarted)
    await writeTransaction(db, (trx) => expireUnstartedPayment(trx, order.transaction_id!));
  return due.length + unstarted.length;
}

/**
 * Units of each product sold (paid orders) and held (unpaid orders still reserving them), by product
 * id: what the products list shows beside the inventory left.
 */
export async function soldAndHeldUnits(
  db: DB,
  merchantId: number,
  productIds: number[],
): Promise<Map<number, { sold: number; held: number }>> {
  const counts = new Map<number, { sold: number; held: number }>();
  if (productIds.length === 0) return counts;
  const lines = () =>
    db
      .selectFrom("catalogue_order_lines")
      .innerJoin("catalogue_orders", "catalogue_orders.id", "catalogue_order_lines.order_id")
      .select([
        "catalogue_order_lines.product_id",
        (eb) => eb.fn.sum<number | string>("catalogue_order_lines.quantity").as("units"),
      ])
      .where("catalogue_orders.merchant_id", "=", merchantId)
      .where("catalogue_order_lines.product_id", "in", productIds)
      .groupBy("catalogue_order_lines.product_id");
  const [sold, held] = await Promise.all([
    lines().where("catalogue_orders.status", "=", "paid").execute(),
    lines()
      .where("catalogue_orders.status", "=", "pending_payment")
      .where("catalogue_orders.holds_stock", "=", 1)
      .where("catalogue_order_lines.reserved", "=", 1)
      .execute(),
  ]);
  for (const id of productIds) counts.set(id, { sold: 0, held: 0 });
  for (const row of sold) counts.get(row.product_id)!.sold = Number(row.units);
  for (const row of held) counts.get(row.product_id)!.held = Number(row.units);
  return counts;
}

export type OrderSummary = {
  number: string;
  /** Its transaction's order number: the one number people read. */
  orderNo: number | null;
  status: CatalogueOrderStatus;
  total: number;
  subtotal: number;
  discount: number;
  currency: string;
  transactionId: string | null;
  lines: { slug: string; name_en: string; name_ar: string; quantity: number; unit_price: number; line_total: number }[];
};

/** An order of the merchant by its unguessable number, with its lines. */
export async function findOrder(db: DB, merchantId: number, number: string): Promise<OrderSummary | undefined> {
  if (!/^[0-9A-Z]{6,40}$/.test(number)) return undefined;
  const order = await db
    .selectFrom("catalogue_orders")
    .select(["id", "number", "order_no", "status", "total", "subtotal", "discount", "currency_code", "transaction_id"])
    .where("merchant_id", "=", merchantId)
    .where("number", "=", number)
    .executeTakeFirst();
  if (!order) return undefined;
  const lines = await db
    .selectFrom("catalogue_order_lines")
    .select(["slug", "name_en", "name_ar", "quantity", "unit_price", "line_total"])
    .where("order_id", "=", order.id)
    .orderBy("id")
    .execute();
  return {
    number: order.number,
    orderNo: order.order_no,
    status: order.status,
    total: order.total,
    subtotal: order.subtotal,
    discount: order.discount,
    currency: order.currency_code,
    transactionId: order.transaction_id,
    lines,
  };
}
