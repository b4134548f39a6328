import type { DB } from "~/db/database.server";
import { can, type Actor } from "~/domain/identity/permissions";
import { hmacSha256, safeEqual } from "~/lib/crypto.server";
import { getAppSecret } from "~/lib/secret.server";

const QR_PREFIX = "FOOD1";

async function signatureOf(db: DB, orderId: number) {
  const secret = await getAppSecret(db);
  // 96 bits of an HMAC: a forged code must guess them.
  return Buffer.from(hmacSha256(`food-order:${secret}`, String(orderId)), "hex")
    .subarray(0, 12)
    .toString("base64url");
}

/** What an order's QR code holds: its id and a signature only the platform can make. */
export async function orderQrContent(db: DB, orderId: number): Promise<string> {
  return `${QR_PREFIX}.${orderId}.${await signatureOf(db, orderId)}`;
}

/** The order a scanned code names when its signature is the platform's; null for anything else. */
export async function readOrderCode(db: DB, code: string): Promise<number | null> {
  const parts = code.trim().split(".");
  if (parts.length !== 3 || parts[0] !== QR_PREFIX || !/^\d{1,10}$/.test(parts[1]) || !parts[2]) return null;
  const orderId = Number(parts[1]);
  return safeEqual(parts[2], await signatureOf(db, orderId)) ? orderId : null;
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
