import { sql, type RawBuilder } from "kysely";
import { engineOf, type DB } from "~/db/database.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { listAuditEntries } from "~/domain/audit/audit-log.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { listTransactions, type TransactionRow } from "~/domain/transactions/list.server";
import { actionContextOf, rowActions, type RowActionName } from "~/domain/payments/transaction-actions.server";
import { bucketsOf, splitRange, type Granularity, type ResolvedPeriod, type TimeRange } from "./periods";
import { COMPLETED_ATTEMPT_STATES } from "~/domain/payments/statistics-rollup.server";

/**
 * The statistics home's figures (dashboard spec §2, §3 Statistics; docs/decisions/0009). Everything
 * counts the merchant's live transactions by the Kuwait time they were created: whole days come from
 * the `transaction_statistics` rollup, parts of a day from the rows. Amounts are minor units.
 */

/** One group of figures: a chart bucket, a section, a currency and a gateway. */
type Cell = {
  bucket: string;
  plugin: string;
  currency: string;
  gateway: string;
  paidCount: number;
  paidAmount: number;
  completed: number;
  succeeded: number;
};

type CellGranularity = Exclude<Granularity, "hour">;

function rollupBucket(granularity: CellGranularity): RawBuilder<string> {
  if (granularity === "all") return sql<string>`''`;
  return granularity === "month" ? sql<string>`substr(day, 1, 7)` : sql<string>`day`;
}

/** The Kuwait hour, day or month of a stored instant, labelled as `bucketsOf` labels them. */
function instantBucket(db: DB, column: string, granularity: Granularity): RawBuilder<string> {
  if (granularity === "all") return sql<string>`''`;
  const ref = sql.ref(column);
  if (engineOf(db) === "postgres") {
    const format = granularity === "hour" ? `YYYY-MM-DD"T"HH24` : granularity === "day" ? "YYYY-MM-DD" : "YYYY-MM";
    return sql<string>`to_char(${ref} at time zone 'Asia/Kuwait', ${sql.lit(format)})`;
  }
  const format = granularity === "hour" ? "%Y-%m-%dT%H" : granularity === "day" ? "%Y-%m-%d" : "%Y-%m";
  return sql<string>`strftime(${sql.lit(format)}, ${ref}, '+3 hours')`;
}

/** Postgres refuses a constant in GROUP BY: the single bucket of "all" is not grouped by. */
const grouped = (bucket: RawBuilder<string>, granularity: Granularity) => (granularity === "all" ? [] : [bucket]);

async function rollupCells(
  db: DB,
  merchantId: number,
  days: { first: string; last: string },
  granularity: CellGranularity,
): Promise<Cell[]> {
  const bucket = rollupBucket(granularity);
  const rows = await db
    .selectFrom("transaction_statistics")
    .select((eb) => [
      bucket.as("bucket"),
      "plugin",
      "currency_code",
      "gateway_code",
      eb.fn.sum<number>("paid_count").as("paid_count"),
      eb.fn.sum<number>("paid_amount").as("paid_amount"),
      eb.fn.sum<number>("attempts_completed").as("completed"),
      eb.fn.sum<number>("attempts_succeeded").as("succeeded"),
    ])
    .where("merchant_id", "=", merchantId)
    .where("day", ">=", days.first)
    .where("day", "<=", days.last)
    .groupBy([...grouped(bucket, granularity), "plugin", "currency_code", "gateway_code"])
    .execute();
  return rows.map((row) => ({
    bucket: row.bucket,
    plugin: row.plugin,
    currency: row.currency_code,
    gateway: row.gateway_code,
    paidCount: Number(row.paid_count),
    paidAmount: Number(row.paid_amount),
    completed: Number(row.completed),
    succeeded: Number(row.succeeded),
  }));
}

/** The same figures read from the rows of a span within a day or two (an index range each). */
async function rawCells(db: DB, merchantId: number, range: TimeRange, granularity: Granularity): Promise<Cell[]> {
  const paidBucket = instantBucket(db, "created_at", granularity);
  const gateway = sql<string>`coalesce(gateway_code, '')`;
  const attemptBucket = instantBucket(db, "t.created_at", granularity);
  const [paid, attempts] = await Promise.all([
    db
      .selectFrom("transactions")
      .select((eb) => [
        paidBucket.as("bucket"),
        "plugin",
        "currency_code",
        gateway.as("gateway_code"),
        eb.fn.countAll<number>().as("paid_count"),
        eb.fn.sum<number>("captured_amount").as("paid_amount"),
      ])
      .where("merchant_id", "=", merchantId)
      .where("state", "=", "paid")
      .where("deleted_at", "is", null)
      .where("created_at", ">=", range.from)
      .where("created_at", "<", range.to)
      .groupBy([...grouped(paidBucket, granularity), "plugin", "currency_code", gateway])
      .execute(),
    db
      .selectFrom("transactions as t")
      .innerJoin("payment_attempts as a", "a.transaction_id", "t.id")
      .select((eb) => [
        attemptBucket.as("bucket"),
        "t.plugin",
        "t.currency_code",
        "a.gateway_code",
        eb.fn.countAll<number>().as("completed"),
        eb.fn.sum<number>(eb.case().when("a.state", "=", "success").then(1).else(0).end()).as("succeeded"),
      ])
      .where("t.merchant_id", "=", merchantId)
      .where("t.deleted_at", "is", null)
      .where("t.created_at", ">=", range.from)
      .where("t.created_at", "<", range.to)
      .where("a.state", "in", COMPLETED_ATTEMPT_STATES)
      .groupBy([...grouped(attemptBucket, granularity), "t.plugin", "t.currency_code", "a.gateway_code"])
      .execute(),
  ]);
  const empty = { paidCount: 0, paidAmount: 0, completed: 0, succeeded: 0 };
  return [
    ...paid.map((row) => ({
      ...empty,
      bucket: row.bucket,
      plugin: row.plugin,
      currency: row.currency_code,
      gateway: row.gateway_code,
      paidCount: Number(row.paid_count),
      paidAmount: Number(row.paid_amount),
    })),
    ...attempts.map((row) => ({
      ...empty,
      bucket: row.bucket,
      plugin: row.plugin,
      currency: row.currency_code,
      gateway: row.gateway_code,
      completed: Number(row.completed),
      succeeded: Number(row.succeeded),
    })),
  ];
}

/** Every figure of a range by bucket, section, currency and gateway. Hourly buckets come from the rows alone. */
async function cellsOf(
  db: DB,
  merchantId: number,
  range: TimeRange,
  granularity: Granularity,
  now: Date,
): Promise<Cell[]> {
  if (granularity === "hour") return rawCells(db, merchantId, range, "hour");
  const { raw, days } = splitRange(range, now);
  const parts = await Promise.all([
    days ? rollupCells(db, merchantId, days, granularity) : [],
    ...raw.map((piece) => rawCells(db, merchantId, piece, granularity)),
  ]);
  return parts.flat();
}

type Sums = { paidCount: number; completed: number; succeeded: number; amounts: Map<string, number> };

function sumCells(cells: Cell[], keyOf: (cell: Cell) => string): Map<string, Sums> {
  const groups = new Map<string, Sums>();
  for (const cell of cells) {
    const key = keyOf(cell);
    let sums = groups.get(key);
    if (!sums) groups.set(key, (sums = { paidCount: 0, completed: 0, succeeded: 0, amounts: new Map() }));
    sums.paidCount += cell.paidCount;
    sums.completed += cell.completed;
    sums.succeeded += cell.succeeded;
    if (cell.paidAmount !== 0 || cell.paidCount !== 0)
      sums.amounts.set(cell.currency, (sums.amounts.get(cell.currency) ?? 0) + cell.paidAmount);
  }
  return groups;
}

const NO_SUMS: Sums = { paidCount: 0, completed: 0, succeeded: 0, amounts: new Map() };

/** One decimal, halves away from zero, never -0. */
function roundTenth(value: number) {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10;
  return rounded === 0 ? 0 : rounded;
}

/** Growth in percent of the previous figure, one decimal; null when there is nothing to compare with. */
export function growthPercent(current: number, previous: number): number | null {
  return previous === 0 ? null : roundTenth(((current - previous) / previous) * 100);
}

/** Successful attempts of the completed ones, as a whole percent; null without attempts. */
export function successPercent(succeeded: number, completed: number): number | null {
  return completed === 0 ? null : Math.round((succeeded / completed) * 100);
}

/** The change of a success rate, in percentage points (one decimal) of the exact rates. */
function rateGrowth(current: Sums, previous: Sums): number | null {
  if (current.completed === 0 || previous.completed === 0) return null;
  return roundTenth((current.succeeded / current.completed - previous.succeeded / previous.completed) * 100);
}

export type GatewayInfo = { code: string; name_en: string; name_ar: string; logo_url: string | null };
export type MoneyFigure = { currency: string; value: number };

export type StatisticsReport = {
  period: ResolvedPeriod;
  /** The chart buckets, oldest first (see `bucketsOf`). */
  buckets: string[];
  totalPaid: { value: number; previous: number; growth: number | null; chart: number[] };
  amountPaid: { currency: string; value: number; previous: number; growth: number | null; chart: number[] }[];
  successRate: {
    value: number | null;
    previous: number | null;
    growth: number | null;
    completed: number;
    succeeded: number;
    chart: (number | null)[];
  };
  paidPerGateway: (GatewayInfo & { value: number; amounts: MoneyFigure[] })[];
  successRatePerGateway: (GatewayInfo & { value: number | null; completed: number; succeeded: number })[];
  productWiseSales: { plugin: string; count: number; amounts: MoneyFigure[] }[];
};

/** The merchant's own currency first, then the others alphabetically. */
function currencyOrder(home: string) {
  return (a: string, b: string) => (a === home ? -1 : b === home ? 1 : a.localeCompare(b));
}

function moneyFigures(amounts: Map<string, number>, order: (a: string, b: string) => number): MoneyFigure[] {
  return [...amounts.entries()].sort(([a], [b]) => order(a, b)).map(([currency, value]) => ({ currency, value }));
}

export async function loadStatistics(
  db: DB,
  merchantId: number,
  period: ResolvedPeriod,
  now: Date,
): Promise<StatisticsReport> {
  const [current, previous, gateways, merchant] = await Promise.all([
    cellsOf(db, merchantId, period.current, period.granularity, now),
    cellsOf(db, merchantId, period.previous, "all", now),
    listMerchantGateways(db, merchantId),
    db.selectFrom("merchants").select("currency_code").where("id", "=", merchantId).executeTakeFirstOrThrow(),
  ]);
  const order = currencyOrder(merchant.currency_code);
  const buckets = bucketsOf(period.current, period.granularity);
  const total = sumCells(current, () => "").get("") ?? NO_SUMS;
  const before = sumCells(previous, () => "").get("") ?? NO_SUMS;
  const byBucket = sumCells(current, (cell) => cell.bucket);
  const inBucket = (bucket: string) => byBucket.get(bucket) ?? NO_SUMS;

  const currencies = [...new Set([...total.amounts.keys(), ...before.amounts.keys()])].sort(order);
  const known = new Map(gateways.map((gateway) => [gateway.code, gateway]));
  const gatewayInfo = (code: string): GatewayInfo => {
    const gateway = known.get(code);
    return {
      code,
      name_en: gateway?.name_en ?? code,
      name_ar: gateway?.name_ar ?? code,
      logo_url: gateway?.logo_url ?? null,
    };
  };
  const gatewayRank = (code: string) =>
    known.has(code) ? gateways.findIndex((gateway) => gateway.code === code) : gateways.length;
  const byGateway = [...sumCells(current, (cell) => cell.gateway).entries()];

  return {
    period,
    buckets,
    totalPaid: {
      value: total.paidCount,
      previous: before.paidCount,
      growth: growthPercent(total.paidCount, before.paidCount),
      chart: buckets.map((bucket) => inBucket(bucket).paidCount),
    },
    amountPaid: currencies.map((currency) => {
      const value = total.amounts.get(currency) ?? 0;
      const earlier = before.amounts.get(currency) ?? 0;
      return {
        currency,
        value,
        previous: earlier,
        growth: growthPercent(value, earlier),
        chart: buckets.map((bucket) => inBucket(bucket).amounts.get(currency) ?? 0),
      };
    }),
    successRate: {
      value: successPercent(total.succeeded, total.completed),
      previous: successPercent(before.succeeded, before.completed),
      growth: rateGrowth(total, before),
      completed: total.completed,
      succeeded: total.succeeded,
      chart: buckets.map((bucket) => successPercent(inBucket(bucket).succeeded, inBucket(bucket).completed)),
    },
    paidPerGateway: byGateway
      .filter(([, sums]) => sums.paidCount > 0)
      .sort(([a, x], [b, y]) => y.paidCount - x.paidCount || gatewayRank(a) - gatewayRank(b))
      .map(([code, sums]) => ({
        ...gatewayInfo(code),
        value: sums.paidCount,
        amounts: moneyFigures(sums.amounts, order),
      })),
    successRatePerGateway: byGateway
      .filter(([, sums]) => sums.completed > 0)
      .sort(([a], [b]) => gatewayRank(a) - gatewayRank(b) || a.localeCompare(b))
      .map(([code, sums]) => ({
        ...gatewayInfo(code),
        value: successPercent(sums.succeeded, sums.completed),
        completed: sums.completed,
        succeeded: sums.succeeded,
      })),
    productWiseSales: [...sumCells(current, (cell) => cell.plugin).entries()]
      .filter(([, sums]) => sums.paidCount > 0)
      .sort(([a, x], [b, y]) => y.paidCount - x.paidCount || a.localeCompare(b))
      .map(([plugin, sums]) => ({ plugin, count: sums.paidCount, amounts: moneyFigures(sums.amounts, order) })),
  };
}

export type AverageSize = {
  year: number;
  currencies: string[];
  /** January to December: per currency, the paid transactions, their amount and its average (null without any). */
  months: { month: string; values: Record<string, { count: number; amount: number; average: number | null }> }[];
};

/** The average paid transaction per month of a Kuwait year, per currency: captured amount over paid count, rounded half up. */
export async function averageTransactionSize(db: DB, merchantId: number, year: number): Promise<AverageSize> {
  const month = sql<string>`substr(day, 1, 7)`;
  const [rows, merchant] = await Promise.all([
    db
      .selectFrom("transaction_statistics")
      .select((eb) => [
        month.as("month"),
        "currency_code",
        eb.fn.sum<number>("paid_count").as("count"),
        eb.fn.sum<number>("paid_amount").as("amount"),
      ])
      .where("merchant_id", "=", merchantId)
      .where("day", ">=", `${year}-01-01`)
      .where("day", "<=", `${year}-12-31`)
      .where("paid_count", "!=", 0)
      .groupBy([month, "currency_code"])
      .execute(),
    db.selectFrom("merchants").select("currency_code").where("id", "=", merchantId).executeTakeFirstOrThrow(),
  ]);
  const currencies = [...new Set(rows.map((row) => row.currency_code))].sort(currencyOrder(merchant.currency_code));
  const months = Array.from({ length: 12 }, (_, index) => `${year}-${String(index + 1).padStart(2, "0")}`);
  return {
    year,
    currencies,
    months: months.map((label) => ({
      month: label,
      values: Object.fromEntries(
        currencies.map((currency) => {
          const row = rows.find((candidate) => candidate.month === label && candidate.currency_code === currency);
          const count = Number(row?.count ?? 0);
          const amount = Number(row?.amount ?? 0);
          return [currency, { count, amount, average: count > 0 ? Math.round(amount / count) : null }];
        }),
      ),
    })),
  };
}

/** The merchant's newest live transactions with the actions this user may take on each now. */
export async function listRecentOrders(
  db: DB,
  merchantId: number,
  user: PermissionHolder,
  limit = 10,
): Promise<{ row: TransactionRow; actions: RowActionName[] }[]> {
  const [page, actionContext] = await Promise.all([
    listTransactions(db, { merchantId, deleted: false }, { filters: {}, page: 1, perPage: limit }),
    actionContextOf(db, merchantId),
  ]);
  return page.rows.map((row) => ({ row, actions: rowActions(row, user, actionContext) }));
}

/**
 * The recent actions of the home page and of GET user/actions: the merchant's whole activity for
 * those who see its statistics, their own actions for everyone else.
 */
export async function listRecentActions(
  db: DB,
  merchantId: number,
  user: PermissionHolder & { id: number },
  limit = 10,
) {
  const merchantWide = can(user, "view_paymenttransaction_statistics");
  return listAuditEntries(db, merchantId, { limit, actorUserId: merchantWide ? undefined : user.id });
}
