import type { DB } from "~/db/database.server";

/*
 * The two conditional updates a reservation is made of (decision 0025): a product's units
 * (`inventory >= n`) and a discount's use (`used < max_uses`). Concurrent checkouts never oversell:
 * whoever updates second reads the first one's result.
 */

/**
 * Takes a product's units by one conditional update (`inventory >= n`). An unlimited product (null)
 * takes none: `taken` says whether units were taken (what the order line records as `reserved`).
 * Answers how many are left when there are not enough.
 */
export async function takeUnits(
  trx: DB,
  productId: number,
  quantity: number,
): Promise<{ ok: true; taken: boolean } | { ok: false; left: number }> {
  const taken = await trx
    .updateTable("catalogue_products")
    .set((eb) => ({ inventory: eb("inventory", "-", quantity) }))
    .where("id", "=", productId)
    .where("inventory", "is not", null)
    .where("inventory", ">=", quantity)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return { ok: true, taken: true };
  const row = await trx
    .selectFrom("catalogue_products")
    .select("inventory")
    .where("id", "=", productId)
    .executeTakeFirst();
  if (row && row.inventory === null) return { ok: true, taken: false };
  return { ok: false, left: row?.inventory ?? 0 };
}

/** Takes one use of a discount by one conditional update (`used < max_uses`). */
export async function takeDiscountUse(trx: DB, discountId: number) {
  const used = await trx
    .updateTable("catalogue_discounts")
    .set((eb) => ({ used: eb("used", "+", 1) }))
    .where("id", "=", discountId)
    .where((eb) => eb.or([eb("max_uses", "is", null), eb("used", "<", eb.ref("max_uses"))]))
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
