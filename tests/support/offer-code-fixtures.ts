import { sql } from "kysely";
import type { DB } from "~/db/database.server";

export type TestOfferCode = {
  merchant_id: number;
  code: string;
  code_lc: string;
  discount_type: "percentage" | "fixed";
  amount: number;
  min_total?: number;
  max_uses?: number | null;
  valid_from?: string | null;
  valid_to?: string | null;
  is_active: number;
  created_at: string;
  updated_at: string;
};

/** Whether the database has the offer codes' table yet: an older installation (the upgrade test's) keeps each section's own. */
async function hasOfferCodes(db: DB) {
  const { rows } = await sql<{
    name: string;
  }>`select name from kysely_migration where name = '0042-offer-codes'`.execute(db);
  return rows.length > 0;
}

/**
 * A food voucher or a catalogue discount code written straight into its table: `offer_codes` (its
 * section's), or on an installation older than migration 0042 the section's own table.
 */
export async function insertOfferCode(db: DB, section: "food_ordering" | "catalogue", values: TestOfferCode) {
  if (await hasOfferCodes(db)) {
    await db
      .insertInto("offer_codes")
      .values({ ...values, section })
      .execute();
  } else {
    await db
      .insertInto(section === "food_ordering" ? "food_vouchers" : "catalogue_discounts")
      .values(values)
      .execute();
  }
}
