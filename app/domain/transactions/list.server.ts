import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from "kysely";
import { engineOf, type DB, type Engine } from "~/db/database.server";
import type { Database, TransactionState } from "~/db/schema";
import { PARTIALLY_REFUNDED } from "./display-state";
import { nameSearchPrefixes } from "./search-key";
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

/** The search's table (migration 0010): a transaction's name from each word on, and its e-mail. */
type SearchTermTable = {
  transaction_id: string;
  term: string;
  merchant_id: number;
  plugin: string;
  live: number;
  created_at: string;
};
type SearchDB = Kysely<Database & { transaction_search_terms: SearchTermTable }>;

/** What a search box text can be: the prefixes it looks for among the terms, and the exact values it may equal. */
type SearchPlan = { prefixes: string[]; text: string; orderNo: number | null; phones: string[] | null };

function planSearch(q: string): SearchPlan {
  const text = q.trim();
  // A name as normalised (decision 0019) and an e-mail as lower-cased: the same for most searches.
  const prefixes = [...new Set([...nameSearchPrefixes(text), text.toLowerCase()])].filter(Boolean);
  // An order number or a phone typed on an Arabic keyboard (٠١٢… or ۰۱۲…) is the same number.
  const digits = text
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x6f0))
    .replace(/[\s-]/g, "");
  const orderNo = /^#?\d{1,9}$/.test(digits) ? Number(digits.replace("#", "")) : null;
  const bare = digits.replace(/^\+/, "");
  const phones = /^\+?\d{6,15}$/.test(digits) ? [`+${bare}`, bare, `+965${bare}`] : null;
  return { prefixes, text, orderNo, phones };
}

/** A list's transactions with a term starting with one of the prefixes (their ids and creation times): one index range each. */
function termMatches(db: DB, scope: ListScope, plan: SearchPlan) {
  let query = (db as unknown as SearchDB)
    .selectFrom("transaction_search_terms")
    .where("transaction_search_terms.merchant_id", "=", scope.merchantId);
  if (scope.plugin) query = query.where("transaction_search_terms.plugin", "=", scope.plugin);
  return query
    .where("transaction_search_terms.live", "=", scope.deleted ? 0 : 1)
    .where((eb) =>
      eb.or(
        plan.prefixes.map((prefix) =>
          eb.and([
            eb("transaction_search_terms.term", ">=", prefix),
            eb("transaction_search_terms.term", "<", `${prefix}\uffff`),
          ]),
        ),
      ),
    );
}

/**
 * The exact branches of the search: the transaction id, an order number, a gateway reference
 * (track id, payment id, reference id) or a phone number. Each is answered by an index.
 */
function exactCondition(
  eb: ExpressionBuilder<Database, "transactions">,
  merchantId: number,
  plan: SearchPlan,
  engine: Engine,
) {
  const { text } = plan;
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
    // Postgres cannot put `id in (subquery)` into a bitmap OR with the other branches' indexes and
    // would read every row of the merchant; `= any(array(subquery))` is computed once and can.
    engine === "postgres"
      ? sql<boolean>`${eb.ref("transactions.id")} = any(array(${byReference}))`
      : eb("transactions.id", "in", byReference),
  ];
  if (plan.orderNo !== null) branches.push(eb("transactions.order_no", "=", plan.orderNo));
  if (plan.phones) branches.push(eb("transactions.customer_phone", "in", plan.phones));
  return eb.or(branches);
}

/**
 * Search (dashboard spec §3 filter q), as a condition on the list's rows: an exact branch, or a
 * term (the customer's name from any word on, or the e-mail address) starting with the text.
 */
function searchCondition(
  eb: ExpressionBuilder<Database, "transactions">,
  db: DB,
  scope: ListScope,
  q: string,
  engine: Engine,
) {
  const plan = planSearch(q);
  const byTerm = termMatches(db, scope, plan).select("transaction_search_terms.transaction_id");
  return eb.or([
    exactCondition(eb, scope.merchantId, plan, engine),
    engine === "postgres"
      ? sql<boolean>`${eb.ref("transactions.id")} = any(array(${byTerm}))`
      : eb("transactions.id", "in", byTerm),
  ]);
}

/** The state filter: stored states, and "partially refunded" (paid, some of it given back; a partial index of its own). */
function stateCondition(eb: ExpressionBuilder<Database, "transactions">, states: string[]) {
  const stored = states.filter((state) => state !== PARTIALLY_REFUNDED) as TransactionState[];
  const branches = [];
  if (stored.length) branches.push(eb("transactions.state", "in", stored));
  if (states.includes(PARTIALLY_REFUNDED))
    branches.push(eb.and([eb("transactions.state", "=", "paid"), eb("transactions.refunded_amount", ">", 0)]));
  return eb.or(branches);
}

function applyFilters(db: DB, query: From, scope: ListScope, filters: TransactionFilters, engine: Engine): From {
  let next = query;
  if (filters.q) {
    const q = filters.q;
    next = next.where((eb) => searchCondition(eb, db, scope, q, engine));
  }
  if (filters.state) {
    const states = filters.state;
    next = next.where((eb) => stateCondition(eb, states));
  }
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
  if (filters.state_changed_at_after)
    next = next.where("transactions.state_changed_at", ">=", filters.state_changed_at_after);
  if (filters.state_changed_at_before)
    next = next.where("transactions.state_changed_at", "<=", filters.state_changed_at_before);
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
  "transactions.merchant_id",
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
  /** How many rows match; with a countLimit, at most that limit + 1 (see countCapped). */
  count: number;
  /** The count stopped at the countLimit: there are more. */
  countCapped: boolean;
  page: number;
  perPage: number | "all";
  pageCount: number;
};

/**
 * Beyond this many matches the page says "more than" instead of counting them all (decision 0019):
 * the Paid tab of a big merchant would otherwise read hundreds of thousands of index entries to
 * print one number. A search counts fewer: a row found by two of its terms (a name and an e-mail
 * that both start "fatima") must be counted once, which costs a sort of every match.
 */
export const COUNT_LIMIT = 10_000;
export const SEARCH_COUNT_LIMIT = 1_000;

/** How far the dashboard's list counts this view. */
export function countLimitFor(filters: TransactionFilters) {
  return filters.q ? SEARCH_COUNT_LIMIT : COUNT_LIMIT;
}

type Match = { id: string; created_at: string };
type Part = SelectQueryBuilder<Database, "transactions", Match>;

/**
 * The commonest views, as parts each read newest first from an index of its own: the search box
 * alone (the terms' index range, and the few exact matches), or the state filter alone (a status
 * tab: one part per state). Parts may share rows only for a search. Other views: null, and the
 * general query with every filter as a condition.
 */
function viewParts(
  db: DB,
  scope: ListScope,
  filters: TransactionFilters,
): { parts: Part[]; overlapping: boolean } | null {
  const keys = Object.keys(filters);
  if (keys.length !== 1) return null;
  const columns = ["transactions.id", "transactions.created_at"] as const;
  if (filters.q) {
    const plan = planSearch(filters.q);
    const engine = engineFor(db);
    const exact = scoped(db, scope)
      .select(columns)
      .where((eb) => exactCondition(eb, scope.merchantId, plan, engine));
    const byTerm = termMatches(db, scope, plan).select([
      "transaction_search_terms.transaction_id as id",
      "transaction_search_terms.created_at",
    ]);
    return { parts: [byTerm as unknown as Part, exact], overlapping: true };
  }
  if (filters.state) {
    const states = new Set(filters.state);
    // A partly refunded payment is paid: with Paid chosen, it is already there.
    if (states.has("paid")) states.delete(PARTIALLY_REFUNDED);
    const parts = [...states].map((state) =>
      state === PARTIALLY_REFUNDED
        ? scoped(db, scope)
            .select(columns)
            .where("transactions.state", "=", "paid")
            .where("transactions.refunded_amount", ">", 0)
        : scoped(db, scope)
            .select(columns)
            .where("transactions.state", "=", state as TransactionState),
    );
    return { parts, overlapping: false };
  }
  return null;
}

/** How many rows the parts hold (each counted once), stopping past `limit` when there is one. */
async function countParts(db: DB, view: { parts: Part[]; overlapping: boolean }, limit: number | undefined) {
  const bounded = (query: Part) => (limit === undefined ? query : query.limit(limit + 1));
  const countOf = async (query: Part) =>
    Number(
      (
        await db
          .selectFrom(query.as("matches"))
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow()
      ).count,
    );
  // A row found by several parts of a search is one row: their union (of id and creation time) counts it once.
  if (view.overlapping)
    return countOf(bounded(view.parts.slice(1).reduce((all, part) => all.union(part), view.parts[0])));
  const counts = await Promise.all(view.parts.map((part) => countOf(bounded(part))));
  const total = counts.reduce((sum, count) => sum + count, 0);
  return limit === undefined ? total : Math.min(total, limit + 1);
}

/**
 * The ids of one page from the parts: each part's newest `offset + size` (an index read in order,
 * or a bounded sort of an index range), merged, each row once. A row matched several times in one
 * part (two words of a name) can leave too few: then each part is read again, twice as far.
 */
async function pageOfParts(parts: Part[], offset: number, size: number) {
  for (let limit = offset + size; ; limit *= 2) {
    const read = await Promise.all(
      parts.map((part) => part.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute()),
    );
    const seen = new Map<string, Match>();
    for (const row of read.flat()) seen.set(row.id, row);
    const merged = [...seen.values()].sort((a, b) =>
      a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
    );
    if (merged.length >= offset + size || read.every((rows) => rows.length < limit))
      return merged.slice(offset, offset + size).map((row) => row.id);
  }
}

/** How many rows the list has; with `limit`, counting stops past it (the unfiltered list's count is always exact, from the running totals). */
export async function countTransactions(db: DB, scope: ListScope, filters: TransactionFilters, limit?: number) {
  if (!hasFilters(filters)) return unfilteredCount(db, scope.merchantId, scope.plugin, scope.deleted);
  const view = viewParts(db, scope, filters);
  if (view) return countParts(db, view, limit);
  const filtered = applyFilters(db, scoped(db, scope), scope, filters, engineFor(db));
  const row =
    limit === undefined
      ? await filtered.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow()
      : await db
          .selectFrom(
            filtered
              .select("transactions.id")
              .limit(limit + 1)
              .as("matches"),
          )
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * One page of the list, newest first. A page past the end shows the last page. `countLimit`: count
 * at most that many rows and say whether there are more (the dashboard's list); without it, an exact
 * count (the API).
 */
export async function listTransactions(
  db: DB,
  scope: ListScope,
  query: Pick<ListQuery, "filters" | "page" | "perPage">,
  options: { countLimit?: number } = {},
): Promise<ListPage> {
  const counted = await countTransactions(db, scope, query.filters, options.countLimit);
  // The unfiltered list's count is exact whatever its size (the running totals).
  const countCapped = options.countLimit !== undefined && hasFilters(query.filters) && counted > options.countLimit;
  const count = countCapped ? options.countLimit! + 1 : counted;
  const size = query.perPage === "all" ? (count <= ALL_ROWS_LIMIT ? Math.max(count, 1) : 100) : query.perPage;
  const pageCount = Math.max(1, Math.ceil((countCapped ? options.countLimit! : count) / size));
  const page = Math.min(query.page, pageCount);
  const offset = (page - 1) * size;
  // The page's ids first, from the transactions alone (or the search's index); then their rows with the
  // joined columns. Read in one pass, every matching (and every skipped) row would be joined before the
  // sort keeps ten of them.
  const view = viewParts(db, scope, query.filters);
  const ids = view
    ? await pageOfParts(view.parts, offset, size)
    : await applyFilters(db, scoped(db, scope), scope, query.filters, engineFor(db))
        .select("transactions.id")
        .orderBy("transactions.created_at", "desc")
        .orderBy("transactions.id", "desc")
        .limit(size)
        .offset(offset)
        .execute()
        .then((rows) => rows.map((row) => row.id));
  const rows = ids.length
    ? await withRowColumns(db.selectFrom("transactions").where("transactions.merchant_id", "=", scope.merchantId))
        .where("transactions.id", "in", ids)
        .orderBy("transactions.created_at", "desc")
        .orderBy("transactions.id", "desc")
        .execute()
    : [];
  return { rows, count, countCapped, page, perPage: query.perPage, pageCount };
}

/** All matching rows in batches, newest first, by keyset: memory stays flat however many there are. */
export async function* iterateTransactions(db: DB, scope: ListScope, filters: TransactionFilters, batchSize = 1000) {
  let last: { created_at: string; id: string } | null = null;
  for (;;) {
    let query = withRowColumns(applyFilters(db, scoped(db, scope), scope, filters, engineFor(db)));
    if (last) {
      const { created_at, id } = last;
      // The redundant upper bound keeps SQLite on an index range: with the bare OR it may pick a
      // multi-index plan that sorts every older row for each batch (quadratic over a long export).
      query = query
        .where("transactions.created_at", "<=", created_at)
        .where((eb) => eb.or([eb("transactions.created_at", "<", created_at), eb("transactions.id", "<", id)]));
    }
    const batch = await query
      .orderBy("transactions.created_at", "desc")
      .orderBy("transactions.id", "desc")
      .limit(batchSize)
      .execute();
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
