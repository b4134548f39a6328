import { sql, type SqlBool } from "kysely";
import { engineOf, type DB } from "~/db/database.server";
import { addMs, now } from "~/lib/clock.server";
import { PAYABLE_STATES } from "./states";
import { transitionTransaction } from "./transaction-state.server";

/*
 * What a customer's checkout holds before any payment starts (food portions, event places,
 * catalogue units). A hold whose customer never reached a gateway page is given back after a short
 * time; the section's full payment hold applies only once an attempt has started, so that a script
 * placing checkouts it never pays keeps nothing for long. One address, or one device, holds only a
 * few unpaid checkouts of a merchant at once.
 */

/** How long a checkout holds its stock while no payment attempt has started. */
export const UNPAID_HOLD_MS = 3 * 60_000;

/** The most unpaid checkouts one address (or one device) may hold at once at a merchant. */
export const MAX_UNPAID_CHECKOUTS = 3;

/** Holds made before this moment without an attempt are over. */
export function unstartedHoldsBefore() {
  return addMs(now(), -UNPAID_HOLD_MS).toISOString();
}

/** A filter for a query over a table with a transaction id: no payment attempt was started on it. */
export function noAttemptStarted(transactionColumn: string) {
  return sql<SqlBool>`not exists (select 1 from payment_attempts where payment_attempts.transaction_id = ${sql.ref(transactionColumn)})`;
}

/**
 * Inside the caller's database transaction: a payable transaction on which no attempt has started
 * expires (the owning section's hook gives its stock back, once). Its row is locked first, then its
 * attempts are counted: an attempt being written meanwhile holds a key lock on the row (its foreign
 * key), so either the count sees it or the attempt's own write finds the transaction expired and is
 * refused (startAttempt). False when an attempt started or the transaction moved already.
 */
export async function expireUnstartedPayment(trx: DB, transactionId: string) {
  let query = trx.selectFrom("transactions").select("state").where("id", "=", transactionId);
  if (engineOf(trx) === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row || !PAYABLE_STATES.includes(row.state)) return false;
  const attempt = await trx
    .selectFrom("payment_attempts")
    .select("id")
    .where("transaction_id", "=", transactionId)
    .limit(1)
    .executeTakeFirst();
  if (attempt) return false;
  const moved = await transitionTransaction(
    trx,
    transactionId,
    "expired",
    { kind: "expired" },
    { from: PAYABLE_STATES },
  );
  return moved.ok;
}

/**
 * Serialises the checkouts of one address at a merchant (Postgres; SQLite has one writer), so that
 * two of them racing both count the other's hold. Taken first in the checkout's write.
 */
export async function lockCheckoutsOf(trx: DB, merchantId: number, key: string) {
  if (engineOf(trx) === "postgres")
    await sql`select pg_advisory_xact_lock(${merchantId}, hashtext(${key}))`.execute(trx);
}
