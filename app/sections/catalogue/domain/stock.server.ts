import type { DB } from "~/db/database.server";

/*
 * The conditional update a reservation is made of (decision 0025): a product's units
 * (`inventory >= n`; a discount's use is claimOfferCode's). Concurrent checkouts never oversell:
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
