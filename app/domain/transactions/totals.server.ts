import type { DB } from "~/db/database.server";

export type CurrencyValue = { currency_code: string; value: number };
export type ListStatistics = { generated: CurrencyValue[]; received: CurrencyValue[]; balance: CurrencyValue[] };

/**
 * The statistics strip (dashboard spec §3 list statistics): per currency, what was asked for
 * (live requests), what was received, and the balance after refunds. Minor units.
 */
export async function listStatistics(db: DB, merchantId: number, plugin?: string): Promise<ListStatistics> {
  let query = db
    .selectFrom("transaction_totals")
    .select((eb) => [
      "currency_code",
      eb.fn.sum<number>("generated_amount").as("generated"),
      eb.fn.sum<number>("deleted_amount").as("deleted"),
      eb.fn.sum<number>("received_amount").as("received"),
      eb.fn.sum<number>("refunded_amount").as("refunded"),
    ])
    .where("merchant_id", "=", merchantId)
    .groupBy("currency_code")
    .orderBy("currency_code");
  if (plugin) query = query.where("plugin", "=", plugin);
  const rows = await query.execute();
  return {
    generated: rows.map((row) => ({
      currency_code: row.currency_code,
      value: Number(row.generated) - Number(row.deleted),
    })),
    received: rows.map((row) => ({ currency_code: row.currency_code, value: Number(row.received) })),
    balance: rows.map((row) => ({
      currency_code: row.currency_code,
      value: Number(row.received) - Number(row.refunded),
    })),
  };
}

/** How many rows an unfiltered list has, from the totals rather than a count over the table. */
export async function unfilteredCount(db: DB, merchantId: number, plugin: string | undefined, deleted: boolean) {
  let query = db
    .selectFrom("transaction_totals")
    .select((eb) => [
      eb.fn.sum<number>("generated_count").as("generated"),
      eb.fn.sum<number>("deleted_count").as("deleted"),
    ])
    .where("merchant_id", "=", merchantId);
  if (plugin) query = query.where("plugin", "=", plugin);
  const row = await query.executeTakeFirst();
  const generated = Number(row?.generated ?? 0);
  const removed = Number(row?.deleted ?? 0);
  return deleted ? removed : generated - removed;
}
