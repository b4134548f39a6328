import type { DB } from "~/db/database.server";
import { createApiKey, parseScopes } from "~/domain/identity/api-keys.server";
import { nowIso } from "~/lib/clock.server";

/** The smallest PNG there is: 1×1, transparent. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** An API key of the merchant with these scopes (`catalogue:read`, `menu:write`, `payment_request`…), made for `manager` without checking what they hold (as a key made before that check); answers the key. */
export async function catalogueApiKey(
  db: DB,
  merchantId: number,
  manager: { id: number; username: string },
  scopes: string[],
) {
  const parsed = parseScopes(scopes, ["catalogue", "payment_request", "food_ordering", "event"]);
  if (!parsed.ok) throw new Error(`Unknown scopes ${parsed.unknown.join(", ")}`);
  const created = await createApiKey(db, {
    manager: { ...manager, merchantId, is_superuser: true },
    key: { name: `Key ${scopes.join(" ")}`, scopes, grants: parsed.grants, allowedIps: [], expiresAt: null },
  });
  if (!created.ok) throw new Error(created.code);
  return created.key;
}

/** A product of the merchant written straight into its table. */
export async function insertCatalogueProduct(
  db: DB,
  merchantId: number,
  input: { slug: string; price: number; sku?: string; inventory?: number | null },
) {
  const at = nowIso();
  const row = await db
    .insertInto("catalogue_products")
    .values({
      merchant_id: merchantId,
      slug: input.slug,
      sku: input.sku ?? null,
      name_en: `Product ${input.slug}`,
      name_ar: `منتج ${input.slug}`,
      price: input.price,
      inventory: input.inventory ?? null,
      is_active: 1,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A paid order of one unit of the product (and the discount, when given), as if a customer had bought it. */
export async function insertCatalogueOrder(
  db: DB,
  merchantId: number,
  input: { productId: number; discountId?: number; storeId?: number },
) {
  const at = nowIso();
  const order = await db
    .insertInto("catalogue_orders")
    .values({
      merchant_id: merchantId,
      number: `C${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
      status: "paid",
      subtotal: 1000,
      total: 1000,
      currency_code: "KWD",
      ...(input.discountId === undefined ? {} : { offer_code_id: input.discountId }),
      store_id: input.storeId ?? null,
      customer_name: "Noura",
      gateway_code: "knet",
      holds_stock: 0,
      hold_until: at,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("catalogue_order_lines")
    .values({
      order_id: order.id,
      product_id: input.productId,
      slug: "x",
      name_en: "X",
      name_ar: "س",
      quantity: 1,
      unit_price: 1000,
      line_total: 1000,
    })
    .execute();
  return order.id;
}

/** Takes a feature of the catalogue away from the merchant. */
export async function removeCatalogueFeature(db: DB, merchantId: number, feature: string) {
  await db
    .deleteFrom("merchant_features")
    .where("merchant_id", "=", merchantId)
    .where("section", "=", "catalogue")
    .where("feature", "=", feature)
    .execute();
}
