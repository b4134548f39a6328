import type { DB } from "~/db/database.server";
import { can, type Actor } from "~/domain/identity/permissions";
import { fulfilmentCode, readFulfilmentCode, type FulfilmentCodeKind } from "~/domain/commerce/fulfilment-codes.server";

/** An order's QR code: its id, in the commerce floor's one format (a ticket's code is refused here). */
const ORDER_CODE: FulfilmentCodeKind = { prefix: "FOOD1", purpose: "food-order", fields: 1 };

/** What an order's QR code holds: its id and a signature only the platform can make. */
export function orderQrContent(db: DB, orderId: number): Promise<string> {
  return fulfilmentCode(db, ORDER_CODE, [orderId]);
}

/** The order a scanned code names when it is an order's code the platform signed; null for anything else. */
async function readOrderCode(db: DB, code: string): Promise<number | null> {
  const read = await readFulfilmentCode(db, ORDER_CODE, code);
  return read.kind === "signed" && /^\d{1,10}$/.test(read.fields[0]) ? Number(read.fields[0]) : null;
}

export type ScanPermission = { has_permission: boolean; order_id: number | null };

/**
 * Whether the user may scan the order a code names: the code is signed by the platform, the user
 * holds scan_order and the order is their merchant's. A forged code, or another merchant's order,
 * answers no order at all.
 */
export async function scanPermission(
  db: DB,
  user: Actor & { merchantId: number },
  code: string,
): Promise<ScanPermission> {
  const orderId = await readOrderCode(db, code);
  if (orderId === null) return { has_permission: false, order_id: null };
  const order = await db
    .selectFrom("food_orders")
    .select("id")
    .where("id", "=", orderId)
    .where("merchant_id", "=", user.merchantId)
    .executeTakeFirst();
  if (!order) return { has_permission: false, order_id: null };
  return can(user, "scan_order")
    ? { has_permission: true, order_id: order.id }
    : { has_permission: false, order_id: null };
}
