import { sql, type Kysely } from "kysely";
import { engineOf, type DB } from "~/db/database.server";
import type { Database, TransactionState } from "~/db/schema";
import { kuwaitDay } from "./running-totals.server";

/**
 * The `transaction_statistics` rollup (docs/decisions/0009): per merchant, Kuwait day of creation,
 * section, currency and gateway. Kept in step inside the writes that change what it counts — a
 * payment attempt's outcome, a capture, a refund in full, a delete or a restore — and rebuilt from
 * the rows by `rebuildStatisticsRollup` after bulk loads.
 */

/** Attempts that ended with a gateway's answer: the success rate's denominator. Cash on delivery is a choice, not an answer. */
export const COMPLETED_ATTEMPT_STATES = ["success", "failed", "canceled", "error"] as const;

type Deltas = Partial<{
  paid_count: number;
  paid_amount: number;
  attempts_completed: number;
  attempts_succeeded: number;
}>;

/** What the rollup needs to know of a transaction to file it. */
export type StatisticsTransaction = {
  merchant_id: number;
  created_at: string;
  plugin: string;
  currency_code: string;
  deleted_at: string | null;
};

async function bumpStatistics(
  db: Kysely<Database>,
  transaction: StatisticsTransaction,
  gatewayCode: string,
  deltas: Deltas,
) {
  const changed = Object.entries(deltas).filter(([, value]) => value !== 0) as [keyof Deltas, number][];
  if (changed.length === 0) return;
  await db
    .insertInto("transaction_statistics")
    .values({
      merchant_id: transaction.merchant_id,
      day: kuwaitDay(transaction.created_at),
      plugin: transaction.plugin,
      currency_code: transaction.currency_code,
      gateway_code: gatewayCode,
      paid_count: 0,
      paid_amount: 0,
      attempts_completed: 0,
      attempts_succeeded: 0,
      ...Object.fromEntries(changed),
    })
    .onConflict((conflict) =>
      conflict
        .columns(["merchant_id", "day", "plugin", "currency_code", "gateway_code"])
        .doUpdateSet((eb) =>
          Object.fromEntries(
            changed.map(([name]) => [name, eb(`transaction_statistics.${name}`, "+", eb.ref(`excluded.${name}`))]),
          ),
        ),
    )
    .execute();
}

/**
 * A payment attempt's outcome, inside the write that records it: one more completed attempt (unless
 * cash on delivery), one more success, and the transaction paid when this attempt paid it.
 */
export async function recordAttemptStatistics(
  db: Kysely<Database>,
  transaction: StatisticsTransaction,
  attempt: { gateway_code: string; state: string; previous?: string },
  paidAmount: number | null,
) {
  if (transaction.deleted_at) return;
  const isCompleted = (state: string | undefined) =>
    state !== undefined && (COMPLETED_ATTEMPT_STATES as readonly string[]).includes(state);
  // A late capture of an attempt counted already (as canceled, failed…) changes its outcome, not the count.
  const completed = isCompleted(attempt.state) && !isCompleted(attempt.previous);
  await bumpStatistics(db, transaction, attempt.gateway_code, {
    attempts_completed: completed ? 1 : 0,
    attempts_succeeded: attempt.state === "success" ? 1 : 0,
    paid_count: paidAmount === null ? 0 : 1,
    paid_amount: paidAmount ?? 0,
  });
}

/**
 * A transaction entering (sign 1, a capture) or leaving (sign -1, refunded in full) the paid state,
 * with the amount captured from it, filed under the gateway that was paid.
 */
export async function recordPaidStatistics(
  db: Kysely<Database>,
  transaction: StatisticsTransaction & { gateway_code: string | null; state: TransactionState },
  sign: 1 | -1,
  capturedAmount: number,
) {
  if (transaction.deleted_at) return;
  await bumpStatistics(db, transaction, transaction.gateway_code ?? "", {
    paid_count: sign,
    paid_amount: sign * capturedAmount,
  });
}

/**
 * A transaction deleted (sign -1) or restored (sign 1): everything it counts for leaves or comes back.
 * Called after the row is updated, so the row is locked against a payment completing meanwhile.
 */
export async function recordDeletedStatistics(
  db: Kysely<Database>,
  merchantId: number,
  transactionId: string,
  sign: 1 | -1,
) {
  const transaction = await db
    .selectFrom("transactions")
    .select(["merchant_id", "created_at", "plugin", "currency_code", "state", "captured_amount", "gateway_code"])
    .where("merchant_id", "=", merchantId)
    .where("id", "=", transactionId)
    .executeTakeFirst();
  if (!transaction) return;
  const filed = { ...transaction, deleted_at: null };
  if (transaction.state === "paid")
    await bumpStatistics(db, filed, transaction.gateway_code ?? "", {
      paid_count: sign,
      paid_amount: sign * transaction.captured_amount,
    });
  const attempts = await db
    .selectFrom("payment_attempts")
    .select((eb) => [
      "gateway_code",
      eb.fn.countAll<number>().as("completed"),
      eb.fn.sum<number>(eb.case().when("state", "=", "success").then(1).else(0).end()).as("succeeded"),
    ])
    .where("transaction_id", "=", transactionId)
    .where("state", "in", COMPLETED_ATTEMPT_STATES)
    .groupBy("gateway_code")
    .execute();
  for (const row of attempts) {
    await bumpStatistics(db, filed, row.gateway_code, {
      attempts_completed: sign * Number(row.completed),
      attempts_succeeded: sign * Number(row.succeeded),
    });
  }
}

/**
 * Rebuilds the rollup from the rows, for one merchant or all: after a bulk load that bypassed the
 * app's writes (scripts/seed-volume.js), or to check the running figures (the tests do).
 */
export async function rebuildStatisticsRollup(db: DB, merchantId?: number) {
  const day = (column: string) =>
    engineOf(db) === "postgres"
      ? sql.raw(`to_char(${column} at time zone 'Asia/Kuwait', 'YYYY-MM-DD')`)
      : sql.raw(`date(${column}, '+3 hours')`);
  const only = (column: string) => (merchantId === undefined ? sql`` : sql`and ${sql.ref(column)} = ${merchantId}`);
  const rebuild = async (trx: Kysely<Database>) => {
    let removal = trx.deleteFrom("transaction_statistics");
    if (merchantId !== undefined) removal = removal.where("merchant_id", "=", merchantId);
    await removal.execute();
    await sql`
      insert into transaction_statistics (merchant_id, day, plugin, currency_code, gateway_code, paid_count, paid_amount)
      select merchant_id, ${day("created_at")}, plugin, currency_code, coalesce(gateway_code, ''), count(*), sum(captured_amount)
      from transactions where state = 'paid' and deleted_at is null ${only("merchant_id")}
      group by merchant_id, ${day("created_at")}, plugin, currency_code, coalesce(gateway_code, '')`.execute(trx);
    await sql`
      insert into transaction_statistics (merchant_id, day, plugin, currency_code, gateway_code, attempts_completed, attempts_succeeded)
      select t.merchant_id, ${day("t.created_at")}, t.plugin, t.currency_code, a.gateway_code, count(*),
        sum(case when a.state = 'success' then 1 else 0 end)
      from payment_attempts a join transactions t on t.id = a.transaction_id
      where t.deleted_at is null and a.state in ('success', 'failed', 'canceled', 'error') ${only("t.merchant_id")}
      group by t.merchant_id, ${day("t.created_at")}, t.plugin, t.currency_code, a.gateway_code
      on conflict (merchant_id, day, plugin, currency_code, gateway_code) do update set
        attempts_completed = excluded.attempts_completed, attempts_succeeded = excluded.attempts_succeeded`.execute(
      trx,
    );
  };
  await db.transaction().execute(rebuild);
}
