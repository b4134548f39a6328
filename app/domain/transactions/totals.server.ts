import type { DB } from "~/db/database.server";

/** The Kuwait calendar day of an instant (Kuwait keeps UTC+3 all year). */
export function kuwaitDay(iso: string): string {
  return new Date(Date.parse(iso) + 3 * 3600_000).toISOString().slice(0, 10);
}

type Deltas = Partial<{
  generated_count: number;
  generated_amount: number;
  deleted_count: number;
  deleted_amount: number;
  received_count: number;
  received_amount: number;
  refunded_amount: number;
}>;

/**
 * Adds to the running totals of one merchant, section and currency on one day. Called inside the
 * write that changes the transaction, so totals and rows never disagree.
 */
export async function bumpTotals(
  db: DB,
  key: { merchantId: number; plugin: string; currency: string; at: string },
  deltas: Deltas,
) {
  const values = {
    generated_count: 0,
    generated_amount: 0,
    deleted_count: 0,
    deleted_amount: 0,
    received_count: 0,
    received_amount: 0,
    refunded_amount: 0,
    ...deltas,
  };
  await db
    .insertInto("transaction_totals")
    .values({ merchant_id: key.merchantId, plugin: key.plugin, currency_code: key.currency, day: kuwaitDay(key.at), ...values })
    .onConflict((conflict) =>
      conflict.columns(["merchant_id", "plugin", "currency_code", "day"]).doUpdateSet((eb) =>
        Object.fromEntries(
          Object.keys(deltas).map((column) => {
            const name = column as keyof typeof values;
            return [name, eb(`transaction_totals.${name}`, "+", eb.ref(`excluded.${name}`))];
          }),
        ),
      ),
    )
    .execute();
}

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
    generated: rows.map((row) => ({ currency_code: row.currency_code, value: Number(row.generated) - Number(row.deleted) })),
    received: rows.map((row) => ({ currency_code: row.currency_code, value: Number(row.received) })),
    balance: rows.map((row) => ({ currency_code: row.currency_code, value: Number(row.received) - Number(row.refunded) })),
  };
}

/** How many rows an unfiltered list has, from the totals rather than a count over the table. */
export async function unfilteredCount(db: DB, merchantId: number, plugin: string | undefined, deleted: boolean) {
  let query = db
    .selectFrom("transaction_totals")
    .select((eb) => [eb.fn.sum<number>("generated_count").as("generated"), eb.fn.sum<number>("deleted_count").as("deleted")])
    .where("merchant_id", "=", merchantId);
  if (plugin) query = query.where("plugin", "=", plugin);
  const row = await query.executeTakeFirst();
  const generated = Number(row?.generated ?? 0);
  const removed = Number(row?.deleted ?? 0);
  return deleted ? removed : generated - removed;
}
