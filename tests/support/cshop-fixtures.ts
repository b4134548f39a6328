import type { DB } from "~/db/database.server";
import { insertOfferCode } from "./offer-code-fixtures";

let counter = 0;

export type TestProduct = {
  slug?: string;
  name_en?: string;
  name_ar?: string;
  price: number;
  discounted_price?: number | null;
  inventory?: number | null;
  sku?: string | null;
  is_active?: number;
};

/**
 * A shop written straight into the catalogue's tables as the merchant's pages would: products (each
 * slug suffixed to stay unique in the file), optionally a discount code, a store and the settings.
 */
export async function createTestShop(
  db: DB,
  input: {
    merchantId: number;
    products: TestProduct[];
    discount?: {
      code?: string;
      discount_type?: "percentage" | "fixed";
      amount: number;
      max_uses?: number | null;
      min_total?: number;
      valid_from?: string | null;
      valid_to?: string | null;
    };
    store?: boolean;
    settings?: Record<string, unknown>;
  },
) {
  counter += 1;
  const at = new Date().toISOString();
  const products = [];
  for (const [index, product] of input.products.entries()) {
    const slug = product.slug ?? `product-${counter}-${index + 1}`;
    const row = await db
      .insertInto("catalogue_products")
      .values({
        merchant_id: input.merchantId,
        slug,
        sku: product.sku ?? `SKU-${counter}-${index + 1}`,
        name_en: product.name_en ?? `Product ${counter}.${index + 1}`,
        name_ar: product.name_ar ?? `منتج ${counter}.${index + 1}`,
        description_en: "A fine thing.",
        description_ar: "شيء جميل.",
        price: product.price,
        discounted_price: product.discounted_price ?? null,
        inventory: product.inventory === undefined ? null : product.inventory,
        is_active: product.is_active ?? 1,
        position: counter * 100 + index,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    products.push({ id: row.id, slug });
  }
  let discountCode: string | null = null;
  if (input.discount) {
    discountCode = input.discount.code ?? `SAVE${counter}`;
    await insertOfferCode(db, "catalogue", {
      merchant_id: input.merchantId,
      code: discountCode,
      code_lc: discountCode.toLowerCase(),
      discount_type: input.discount.discount_type ?? "percentage",
      amount: input.discount.amount,
      max_uses: input.discount.max_uses ?? null,
      min_total: input.discount.min_total ?? 0,
      valid_from: input.discount.valid_from ?? null,
      valid_to: input.discount.valid_to ?? null,
      is_active: 1,
      created_at: at,
      updated_at: at,
    });
  }
  let storeId: number | null = null;
  if (input.store) {
    storeId = (
      await db
        .insertInto("catalogue_stores")
        .values({
          merchant_id: input.merchantId,
          name_en: `Store ${counter}`,
          name_ar: `متجر ${counter}`,
          address_en: "Salmiya",
          address_ar: "السالمية",
          is_active: 1,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  }
  if (input.settings) {
    await db.deleteFrom("catalogue_settings").where("merchant_id", "=", input.merchantId).execute();
    await db
      .insertInto("catalogue_settings")
      .values({ merchant_id: input.merchantId, data: JSON.stringify(input.settings), updated_at: at })
      .execute();
  }
  return { products, discountCode, storeId };
}

export const inventoryOf = async (db: DB, productId: number) =>
  (await db.selectFrom("catalogue_products").select("inventory").where("id", "=", productId).executeTakeFirstOrThrow())
    .inventory;
