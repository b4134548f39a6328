import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { engineOf, type DB, type Engine } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { ALL_ROWS_LIMIT, hasFilters, type ListQuery, type TransactionFilters } from "./filters";
import { unfilteredCount } from "./totals.server";

/** Whose rows a list shows: always one merchant; a section's plugin or all; live or deleted. */
export type ListScope = { merchantId: number; plugin?: string; deleted: boolean };

type From = SelectQueryBuilder<Database, "transactions", object>;

function scoped(db: DB, scope: ListScope): From {
  let query = db.selectFrom("transactions").where("transactions.merchant_id", "=", scope.merchantId);
  if (scope.plugin) query = query.where("transactions.plugin", "=", scope.plugin);
  return query.where("transactions.deleted_at", scope.deleted ? "is not" : "is", null);
}

/** The engine, for the few query shapes that differ; a Kysely instance of unknown origin gets the portable ones. */
function engineFor(db: DB): Engine {
  try {
    return engineOf(db);
  } catch {
    return "sqlite";
  }
}

/**
 * Search (dashboard spec §3 filter q): an id, an order number, a gateway reference (track id,
 * payment id, reference id), a phone number, or the start of an e-mail address.
 * Every branch is answered by an index.
 */
function searchCondition(eb: ExpressionBuilder<Database, "transactions">, merchantId: number, q: string, engine: Engine) {
  const text = q.trim();
  const lower = text.toLowerCase();
  const byReference = eb
    .selectFrom("payment_attempts")
    .select("payment_attempts.transaction_id")
    .where("payment_attempts.merchant_id", "=", merchantId)
    .where((inner) =>
      inner.or([
        inner("payment_attempts.track_id", "=", text),
        inner("payment_attempts.payment_id", "=", text),
        inner("payment_attempts.reference_id", "=", text),
      ]),
    );
  const branches = [
    eb("transactions.id", "=", text),
    eb.and([eb("transactions.customer_email_lc", ">=", lower), eb("transactions.customer_email_lc", "<", `${lower}\uffff`)]),
    // Postgres cannot put `id in (subquery)` into a bitmap OR with the other branches' indexes and
    // would read every row of the merchant; `= any(array(subquery))` is computed once and can.
    engine === "postgres"
      ? sql<boolean>`${eb.ref("transactions.id")} = any(array(${byReference}))`
      : eb("transactions.id", "in", byReference),
  ];
  const digits = text.replace(/[\s-]/g, "");
  if (/^#?\d{1,9}$/.test(digits)) branches.push(eb("transactions.order_no", "=", Number(digits.replace("#", ""))));
  if (/^\+?\d{6,15}$/.test(digits)) {
    const bare = digits.replace(/^\+/, "");
    branches.push(eb("transactions.customer_phone", "in", [`+${bare}`, bare, `+965${bare}`]));
  }
  return eb.or(branches);
}

export function applyFilters(query: From, merchantId: number, filters: TransactionFilters, engine: Engine = "sqlite"): From {
  let next = query;
  if (filters.q) {
    const q = filters.q;
    next = next.where((eb) => searchCondition(eb, merchantId, q, engine));
  }
  if (filters.state) next = next.where("transactions.state", "in", filters.state as never);
  if (filters.gateway_code) next = next.where("transactions.gateway_code", "in", filters.gateway_code);
  if (filters.currency_code) next = next.where("transactions.currency_code", "in", filters.currency_code);
  if (filters.initiator) next = next.where("transactions.initiator_user_id", "=", filters.initiator);
  if (filters.unit) next = next.where("transactions.unit_id", "=", filters.unit);
  if (filters.bulk) next = next.where("transactions.bulk_id", "=", filters.bulk);
  if (filters.product_type) next = next.where("transactions.product_type", "=", filters.product_type);
  if (filters.seen !== undefined) next = next.where("transactions.seen", "=", filters.seen ? 1 : 0);
  if (filters.email_seen !== undefined) next = next.where("transactions.email_seen", "=", filters.email_seen ? 1 : 0);
  if (filters.disclosed_to_merchant !== undefined) {
    next = next.where("transactions.disclosed_to_merchant", "=", filters.disclosed_to_merchant ? 1 : 0);
  }
  if (filters.created_after) next = next.where("transactions.created_at", ">=", filters.created_after);
  if (filters.created_before) next = next.where("transactions.created_at", "<=", filters.created_before);
  if (filters.state_changed_at_after) next = next.where("transactions.state_changed_at", ">=", filters.state_changed_at_after);
  if (filters.state_changed_at_before) next = next.where("transactions.state_changed_at", "<=", filters.state_changed_at_before);
  return next;
}

/** Everything a list row, the details page and an export read. */
export const ROW_COLUMNS = [
  "transactions.id",
  "transactions.order_no",
  "transactions.plugin",
  "transactions.state",
  "transactions.amount",
  "transactions.currency_code",
  "transactions.customer_email",
  "transactions.customer_phone",
  "transactions.customer_first_name",
  "transactions.customer_last_name",
  "transactions.description",
  "transactions.remarks",
  "transactions.attachment_name",
  "transactions.pg_codes",
  "transactions.expiration_time",
  "transactions.paid_amount",
  "transactions.fee",
  "transactions.captured_amount",
  "transactions.refunded_amount",
  "transactions.voided_amount",
  "transactions.gateway_code",
  "transactions.paid_attempt_id",
  "transactions.editable_amount",
  "transactions.min_amount",
  "transactions.max_amount",
  "transactions.delivery_mode",
  "transactions.delivery_address",
  "transactions.delivery_lat",
  "transactions.delivery_lng",
  "transactions.extra",
  "transactions.product_type",
  "transactions.bulk_id",
  "transactions.seen",
  "transactions.email_seen",
  "transactions.disclosed_to_merchant",
  "transactions.created_at",
  "transactions.state_changed_at",
  "transactions.deleted_at",
  "transactions.unit_id",
  "transactions.initiator_user_id",
  "transactions.paid_late",
] as const;

function withRowColumns(query: From) {
  return query
    .leftJoin("users as initiator", "initiator.id", "transactions.initiator_user_id")
    .leftJoin("units", "units.id", "transactions.unit_id")
    .leftJoin("payment_attempts as paid_attempt", "paid_attempt.id", "transactions.paid_attempt_id")
    .select(ROW_COLUMNS)
    .select([
      "initiator.username as initiator",
      "units.title_en as unit_en",
      "units.title_ar as unit_ar",
      "paid_attempt.auth_code as auth_code",
      "paid_attempt.reference_id as reference_id",
      "paid_attempt.track_id as track_id",
      "paid_attempt.payment_id as payment_id",
      "paid_attempt.tran_id as tran_id",
      "paid_attempt.gateway_kind as card_type",
      "paid_attempt.fee as paid_attempt_fee",
    ]);
}

export type TransactionRow = Awaited<ReturnType<ReturnType<typeof withRowColumns>["executeTakeFirstOrThrow"]>>;

export type ListPage = {
  rows: TransactionRow[];
  count: number;
  page: number;
  perPage: number | "all";
  pageCount: number;
};

export async function countTransactions(db: DB, scope: ListScope, filters: TransactionFilters) {
  if (!hasFilters(filters)) return unfilteredCount(db, scope.merchantId, scope.plugin, scope.deleted);
  const row = await applyFilters(scoped(db, scope), scope.merchantId, filters, engineFor(db))
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of the list, newest first. A page past the end shows the last page. */
export async function listTransactions(db: DB, scope: ListScope, query: Pick<ListQuery, "filters" | "page" | "perPage">): Promise<ListPage> {
  const count = await countTransactions(db, scope, query.filters);
  const size = query.perPage === "all" ? (count <= ALL_ROWS_LIMIT ? Math.max(count, 1) : 100) : query.perPage;
  const pageCount = Math.max(1, Math.ceil(count / size));
  const page = Math.min(query.page, pageCount);
  // The page's ids first, from the transactions alone; then their rows with the joined columns. Read in
  // one pass, every matching (and every skipped) row would be joined before the sort keeps ten of them.
  const ids = applyFilters(scoped(db, scope), scope.merchantId, query.filters, engineFor(db))
    .select("transactions.id")
    .orderBy("transactions.created_at", "desc")
    .orderBy("transactions.id", "desc")
    .limit(size)
    .offset((page - 1) * size);
  const rows = await withRowColumns(db.selectFrom("transactions").where("transactions.merchant_id", "=", scope.merchantId))
    .where("transactions.id", "in", ids)
    .orderBy("transactions.created_at", "desc")
    .orderBy("transactions.id", "desc")
    .execute();
  return { rows, count, page, perPage: query.perPage, pageCount };
}

/** All matching rows in batches, newest first, by keyset: memory stays flat however many there are. */
export async function* iterateTransactions(db: DB, scope: ListScope, filters: TransactionFilters, batchSize = 1000) {
  let last: { created_at: string; id: string } | null = null;
  for (;;) {
    let query = withRowColumns(applyFilters(scoped(db, scope), scope.merchantId, filters, engineFor(db)));
    if (last) {
      const { created_at, id } = last;
      // The redundant upper bound keeps SQLite on an index range: with the bare OR it may pick a
      // multi-index plan that sorts every older row for each batch (quadratic over a long export).
      query = query
        .where("transactions.created_at", "<=", created_at)
        .where((eb) => eb.or([eb("transactions.created_at", "<", created_at), eb("transactions.id", "<", id)]));
    }
    const batch = await query.orderBy("transactions.created_at", "desc").orderBy("transactions.id", "desc").limit(batchSize).execute();
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < batchSize) return;
    const tail = batch[batch.length - 1];
    last = { created_at: tail.created_at, id: tail.id };
  }
}

/** One transaction of the merchant, live or deleted, with everything the details page shows. */
export async function findTransactionRow(db: DB, scope: ListScope, id: string) {
  return withRowColumns(scoped(db, scope)).where("transactions.id", "=", id).executeTakeFirst();
}

/** Refunds, captures and voids of these transactions, oldest first. */
export async function childOperations(db: DB, merchantId: number, transactionIds: string[]) {
  if (transactionIds.length === 0) return [];
  return db
    .selectFrom("transaction_operations")
    .leftJoin("users", "users.id", "transaction_operations.requested_by")
    .select([
      "transaction_operations.id",
      "transaction_operations.transaction_id",
      "transaction_operations.kind",
      "transaction_operations.state",
      "transaction_operations.amount",
      "transaction_operations.currency_code",
      "transaction_operations.gateway_code",
      "transaction_operations.gateway_reference",
      "transaction_operations.message",
      "transaction_operations.created_at",
      "transaction_operations.completed_at",
      "transaction_operations.attempt_id",
      "users.username as requested_by",
    ])
    .where("transaction_operations.merchant_id", "=", merchantId)
    .where("transaction_operations.transaction_id", "in", transactionIds)
    .orderBy("transaction_operations.id")
    .execute();
}

export type ChildOperation = Awaited<ReturnType<typeof childOperations>>[number];
