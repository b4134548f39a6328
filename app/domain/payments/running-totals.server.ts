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
    .values({
      merchant_id: key.merchantId,
      plugin: key.plugin,
      currency_code: key.currency,
      day: kuwaitDay(key.at),
      ...values,
    })
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
