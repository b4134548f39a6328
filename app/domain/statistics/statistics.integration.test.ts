import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { completeAttempt } from "~/domain/payments/attempts.server";
import { runRowAction } from "~/domain/payments/transaction-actions.server";
import { resolvePeriod, type ResolvedPeriod } from "./periods";
import { rebuildStatisticsRollup } from "~/domain/payments/statistics-rollup.server";
import { averageTransactionSize, listRecentOrders, loadStatistics } from "./statistics.server";

/**
 * A known set of transactions — three currencies' worth of sections, gateways and outcomes, on both
 * sides of Kuwait midnights and of the previous periods' cut-off times — written through the app's
 * own payment completion and delete paths, then every figure of the statistics home checked against
 * values worked out by hand. "Now" is Wednesday 11 March 2026, 12:30 in Kuwait (09:30 UTC).
 */
const NOW = new Date("2026-03-11T09:30:00.000Z");

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;
let serial = 0;
const ids: Record<string, string> = {};

const GATEWAY_KIND = { "knet-sandbox": "knet", "mpgs-sandbox": "card", cod: "cod" } as const;
type Gateway = keyof typeof GATEWAY_KIND;
type Outcome = "success" | "authorized" | "failed" | "canceled" | "error" | "cod";

const id22 = (prefix: string) => `${prefix}${String(++serial).padStart(22 - prefix.length, "0")}`;
/** "2026-03-11 09:15" (or with seconds) in Kuwait → the UTC instant the app stores. */
const kuwait = (text: string) =>
  new Date(Date.parse(`${text.replace(" ", "T")}${text.length === 16 ? ":00" : ""}+03:00`)).toISOString();

/** A transaction created at a Kuwait time, then its payment attempts completed one after another by the app. */
async function transaction(input: {
  key: string;
  at: string;
  amount: number;
  currency?: string;
  plugin?: string;
  attempts: [Gateway, Outcome][];
  merchantId?: number;
}) {
  const merchantId = input.merchantId ?? shop.merchantId;
  const id = id22("T");
  const created = kuwait(input.at);
  await database.db
    .insertInto("transactions")
    .values({
      id,
      merchant_id: merchantId,
      unit_id: null,
      plugin: input.plugin ?? "payment_request",
      order_no: serial,
      state: "pending",
      amount: input.amount,
      currency_code: input.currency ?? "KWD",
      editable_amount: 0,
      customer_email: `${input.key.toLowerCase()}@example.com`,
      customer_email_lc: `${input.key.toLowerCase()}@example.com`,
      customer_phone: null,
      customer_first_name: null,
      customer_last_name: null,
      description: null,
      remarks: null,
      attachment_path: null,
      attachment_name: null,
      pg_codes: "knet-sandbox,mpgs-sandbox,cod",
      expiration_time: null,
      next_url: null,
      initiator_user_id: null,
      gateway_code: null,
      paid_attempt_id: null,
      send_email: 0,
      send_sms: 0,
      created_at: created,
      state_changed_at: created,
      deleted_at: null,
    })
    .execute();
  for (const [gateway, outcome] of input.attempts) {
    const attemptId = id22("A");
    await database.db
      .insertInto("payment_attempts")
      .values({
        id: attemptId,
        transaction_id: id,
        merchant_id: merchantId,
        gateway_code: gateway,
        gateway_kind: GATEWAY_KIND[gateway],
        state: "pending",
        amount: input.amount,
        fee: 0,
        total: input.amount,
        fee_payer: "merchant",
        currency_code: input.currency ?? "KWD",
        track_id: attemptId,
        submission_token: attemptId,
        gateway_reference: null,
        redirect_url: null,
        payment_id: null,
        tran_id: null,
        auth_code: null,
        reference_id: null,
        post_date: null,
        result_code: null,
        authorized_only: 0,
        created_at: created,
        completed_at: null,
      })
      .execute();
    if (outcome === "cod")
      await completeAttempt(database.db, attemptId, { status: "success", refs: {} }, { cod: true });
    else await completeAttempt(database.db, attemptId, { status: outcome, refs: {} });
  }
  ids[input.key] = id;
  return id;
}

const actor = () => ({
  id: shop.admin.id,
  username: shop.admin.username,
  is_superuser: 1,
  permissions: [] as string[],
});
const period = (query: Record<string, string>): ResolvedPeriod => {
  const resolved = resolvePeriod(query, NOW);
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.errors));
  return resolved.value;
};
const statistics = (query: Record<string, string>) => loadStatistics(database.db, shop.merchantId, period(query), NOW);

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Stats");
  other = await seedMerchant(database.db, "Elsewhere");
  // Today, Wednesday 11 March (Kuwait).
  await transaction({
    key: "T1",
    at: "2026-03-11 00:00",
    amount: 10_000,
    attempts: [
      ["knet-sandbox", "failed"],
      ["knet-sandbox", "success"],
    ],
  });
  await transaction({
    key: "T2",
    at: "2026-03-11 09:15",
    amount: 5_500,
    plugin: "e_commerce",
    attempts: [["mpgs-sandbox", "success"]],
  });
  await transaction({
    key: "T3",
    at: "2026-03-11 11:00",
    amount: 2_000,
    currency: "USD",
    plugin: "e_commerce",
    attempts: [["mpgs-sandbox", "success"]],
  });
  await transaction({
    key: "T4",
    at: "2026-03-11 10:05",
    amount: 3_000,
    attempts: [
      ["mpgs-sandbox", "error"],
      ["knet-sandbox", "canceled"],
    ],
  });
  await transaction({
    key: "T5",
    at: "2026-03-11 12:00",
    amount: 7_000,
    plugin: "catalogue",
    attempts: [["cod", "cod"]],
  });
  await transaction({ key: "T6", at: "2026-03-11 12:29", amount: 4_000, attempts: [["mpgs-sandbox", "authorized"]] });
  await transaction({ key: "T7", at: "2026-03-11 08:00", amount: 1_000, attempts: [["knet-sandbox", "failed"]] });
  // Yesterday: 23:59:59 is yesterday, and after 12:30, so not in the day's previous span.
  await transaction({ key: "Y1", at: "2026-03-10 23:59:59", amount: 8_000, attempts: [["knet-sandbox", "success"]] });
  await transaction({ key: "Y2", at: "2026-03-10 10:00", amount: 2_000, attempts: [["knet-sandbox", "success"]] });
  await transaction({
    key: "Y3",
    at: "2026-03-10 12:00",
    amount: 6_000,
    plugin: "e_commerce",
    attempts: [["mpgs-sandbox", "failed"]],
  });
  // This week began on Sunday 8 March; the previous week's span is Sunday 1 March to Wednesday 4 March, 12:30.
  await transaction({
    key: "W1",
    at: "2026-03-08 09:00",
    amount: 12_000,
    plugin: "shopify",
    attempts: [["knet-sandbox", "success"]],
  });
  await transaction({ key: "W2", at: "2026-03-08 12:00", amount: 2_500, attempts: [["knet-sandbox", "failed"]] });
  await transaction({ key: "P1", at: "2026-03-04 12:00", amount: 9_000, attempts: [["knet-sandbox", "success"]] });
  await transaction({ key: "P2", at: "2026-03-04 13:00", amount: 1_500, attempts: [["knet-sandbox", "success"]] });
  // February: the previous month's span ends on 11 February, 12:30.
  await transaction({
    key: "F1",
    at: "2026-02-10 10:00",
    amount: 3_000,
    currency: "USD",
    plugin: "e_commerce",
    attempts: [["mpgs-sandbox", "success"]],
  });
  await transaction({
    key: "F2",
    at: "2026-02-20 10:00",
    amount: 50_000,
    plugin: "catalogue",
    attempts: [["mpgs-sandbox", "success"]],
  });
  // Last year: the previous year's span ends on 11 March 2025, 12:30.
  await transaction({ key: "L1", at: "2025-03-11 12:00", amount: 100_000, attempts: [["knet-sandbox", "success"]] });
  await transaction({ key: "L2", at: "2025-03-11 13:00", amount: 40_000, attempts: [["knet-sandbox", "success"]] });
  // Another merchant's payment never shows.
  await transaction({
    key: "O1",
    at: "2026-03-11 09:00",
    amount: 99_000,
    merchantId: other.merchantId,
    attempts: [["knet-sandbox", "success"]],
  });
  // A deleted transaction counts for nothing.
  const common = {
    merchantId: shop.merchantId,
    user: actor(),
    lang: "en" as const,
    baseUrl: "https://pay.example",
    addresses: { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" },
  };
  expect(await runRowAction(database.db, { ...common, transactionId: ids.T7, action: "delete" })).toMatchObject({
    ok: true,
  });
});
afterAll(async () => database?.destroy());

describe("the statistics of today (period=day)", () => {
  it("counts today's paid transactions against the same hours of yesterday", async () => {
    const report = await statistics({});
    expect(report.period).toMatchObject({
      period: "day",
      dateAfter: "2026-03-11",
      dateBefore: "2026-03-11",
      granularity: "hour",
    });
    expect(report.period.previous).toEqual({ from: "2026-03-09T21:00:00.000Z", to: "2026-03-10T09:30:00.000Z" });
    // T1, T2, T3 today; yesterday before 12:30 only Y2.
    expect(report.totalPaid).toMatchObject({ value: 3, previous: 1, growth: 200 });
    expect(report.buckets).toEqual(
      Array.from({ length: 13 }, (_, hour) => `2026-03-11T${String(hour).padStart(2, "0")}`),
    );
    expect(report.totalPaid.chart).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0]);
  });

  it("sums GMV per currency, the merchant's own first, with growth only where there is a previous figure", async () => {
    const report = await statistics({ period: "day" });
    expect(report.amountPaid.map(({ chart: _chart, ...figure }) => figure)).toEqual([
      { currency: "KWD", value: 15_500, previous: 2_000, growth: 675 },
      { currency: "USD", value: 2_000, previous: 0, growth: null },
    ]);
    expect(report.amountPaid[0].chart).toEqual([10_000, 0, 0, 0, 0, 0, 0, 0, 0, 5_500, 0, 0, 0]);
    expect(report.amountPaid[1].chart).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2_000, 0]);
  });

  it("rates successful attempts over completed ones, leaving cash on delivery and deleted transactions out", async () => {
    const report = await statistics({ period: "day" });
    // T1 2 (1 success), T2 1/1, T3 1/1, T4 2/0, T6 1/1 (authorized): 4 of 7 = 57.1 %; yesterday Y2 1/1, Y3 1/0: 50 %.
    expect(report.successRate).toMatchObject({ value: 57, previous: 50, growth: 7.1, completed: 7, succeeded: 4 });
    expect(report.successRate.chart).toEqual([50, null, null, null, null, null, null, null, null, 100, 0, 100, 100]);
    expect(
      report.successRatePerGateway.map(({ code, value, completed, succeeded, name_en, logo_url }) => ({
        code,
        value,
        completed,
        succeeded,
        name_en,
        logo_url,
      })),
    ).toEqual([
      { code: "knet-sandbox", value: 33, completed: 3, succeeded: 1, name_en: "KNET", logo_url: "/gateways/knet.svg" },
      {
        code: "mpgs-sandbox",
        value: 75,
        completed: 4,
        succeeded: 3,
        name_en: "Credit Card",
        logo_url: "/gateways/card.svg",
      },
    ]);
  });

  it("splits the paid ones by gateway and by section", async () => {
    const report = await statistics({ period: "day" });
    expect(report.paidPerGateway.map(({ code, value, amounts }) => ({ code, value, amounts }))).toEqual([
      {
        code: "mpgs-sandbox",
        value: 2,
        amounts: [
          { currency: "KWD", value: 5_500 },
          { currency: "USD", value: 2_000 },
        ],
      },
      { code: "knet-sandbox", value: 1, amounts: [{ currency: "KWD", value: 10_000 }] },
    ]);
    expect(report.productWiseSales).toEqual([
      {
        plugin: "e_commerce",
        count: 2,
        amounts: [
          { currency: "KWD", value: 5_500 },
          { currency: "USD", value: 2_000 },
        ],
      },
      { plugin: "payment_request", count: 1, amounts: [{ currency: "KWD", value: 10_000 }] },
    ]);
  });
});

describe("longer periods", () => {
  it("reads this week (from Sunday) by day against the same span of last week", async () => {
    const report = await statistics({ period: "week" });
    expect(report.period).toMatchObject({ dateAfter: "2026-03-08", dateBefore: "2026-03-11", granularity: "day" });
    expect(report.period.previous).toEqual({ from: "2026-02-28T21:00:00.000Z", to: "2026-03-04T09:30:00.000Z" });
    // W1, Y1, Y2 and today's three; last week P1 (12:00) but not P2 (13:00).
    expect(report.buckets).toEqual(["2026-03-08", "2026-03-09", "2026-03-10", "2026-03-11"]);
    expect(report.totalPaid).toEqual({ value: 6, previous: 1, growth: 500, chart: [1, 0, 2, 3] });
    expect(
      report.amountPaid.map(({ currency, value, previous, growth }) => ({ currency, value, previous, growth })),
    ).toEqual([
      { currency: "KWD", value: 37_500, previous: 9_000, growth: 316.7 },
      { currency: "USD", value: 2_000, previous: 0, growth: null },
    ]);
    // 7 + W1 + W2 + Y1 + Y2 + Y3 = 12 completed, 4 + 1 + 0 + 1 + 1 + 0 = 7 succeeded; last week 1 of 1.
    expect(report.successRate).toMatchObject({ value: 58, previous: 100, growth: -41.7, completed: 12, succeeded: 7 });
    expect(report.successRate.chart).toEqual([50, null, 67, 57]);
  });

  it("reads this month against the first days of last month", async () => {
    const report = await statistics({ period: "month" });
    expect(report.period.previous).toEqual({ from: "2026-01-31T21:00:00.000Z", to: "2026-02-11T09:30:00.000Z" });
    expect(report.totalPaid).toMatchObject({ value: 8, previous: 1, growth: 700 });
    expect(
      report.amountPaid.map(({ currency, value, previous, growth }) => ({ currency, value, previous, growth })),
    ).toEqual([
      { currency: "KWD", value: 48_000, previous: 0, growth: null },
      { currency: "USD", value: 2_000, previous: 3_000, growth: -33.3 },
    ]);
    expect(report.successRate).toMatchObject({ value: 64, previous: 100, growth: -35.7, completed: 14, succeeded: 9 });
    expect(report.buckets).toHaveLength(11);
    expect(report.totalPaid.chart.reduce((sum, value) => sum + value, 0)).toBe(8);
  });

  it("reads this year by month against the same span of last year", async () => {
    const report = await statistics({ period: "year" });
    expect(report.period.previous).toEqual({ from: "2024-12-31T21:00:00.000Z", to: "2025-03-11T09:30:00.000Z" });
    expect(report.buckets).toEqual(["2026-01", "2026-02", "2026-03"]);
    expect(report.totalPaid).toEqual({ value: 10, previous: 1, growth: 900, chart: [0, 2, 8] });
    expect(
      report.amountPaid.map(({ currency, value, previous, growth, chart }) => ({
        currency,
        value,
        previous,
        growth,
        chart,
      })),
    ).toEqual([
      { currency: "KWD", value: 98_000, previous: 100_000, growth: -2, chart: [0, 50_000, 48_000] },
      { currency: "USD", value: 5_000, previous: 0, growth: null, chart: [0, 3_000, 2_000] },
    ]);
    // 11 of 16: 68.75 % shows as 69; last year 1 of 1; -31.25 points round away from zero.
    expect(report.successRate).toMatchObject({ value: 69, previous: 100, growth: -31.3, completed: 16, succeeded: 11 });
    expect(report.productWiseSales.map(({ plugin, count }) => [plugin, count])).toEqual([
      ["payment_request", 5],
      ["e_commerce", 3],
      ["catalogue", 1],
      ["shopify", 1],
    ]);
  });

  it("reads a custom range of whole days up to now against the equal span before it", async () => {
    const report = await statistics({ period: "custom", date_after: "2026-03-10", date_before: "2026-03-11" });
    // 36 h 30 min back from Tuesday 00:00: from Sunday 11:30, which holds W2 (12:00, failed) but not W1 (09:00).
    expect(report.period.previous).toEqual({ from: "2026-03-08T08:30:00.000Z", to: "2026-03-09T21:00:00.000Z" });
    expect(report.totalPaid).toMatchObject({ value: 5, previous: 0, growth: null, chart: [2, 3] });
    expect(report.amountPaid[0]).toMatchObject({ currency: "KWD", value: 25_500, previous: 0, growth: null });
    expect(report.successRate).toMatchObject({ value: 60, previous: 0, growth: 60, completed: 10, succeeded: 6 });
  });

  it("reads one past day by the hour", async () => {
    const report = await statistics({ period: "custom", date_after: "2026-03-10", date_before: "2026-03-10" });
    expect(report.buckets).toHaveLength(24);
    expect(report.totalPaid).toMatchObject({ value: 2, previous: 0, growth: null });
    expect(report.totalPaid.chart[10]).toBe(1);
    expect(report.totalPaid.chart[23]).toBe(1);
    expect(report.amountPaid).toEqual([expect.objectContaining({ currency: "KWD", value: 10_000 })]);
    expect(report.successRate).toMatchObject({ value: 67, previous: null, growth: null });
  });

  it("answers zeros and no rates for a range without transactions", async () => {
    const report = await statistics({ period: "custom", date_after: "2024-01-01", date_before: "2024-01-31" });
    expect(report.totalPaid).toMatchObject({ value: 0, previous: 0, growth: null });
    expect(report.amountPaid).toEqual([]);
    expect(report.successRate).toMatchObject({ value: null, previous: null, growth: null });
    expect(report.paidPerGateway).toEqual([]);
    expect(report.productWiseSales).toEqual([]);
  });
});

describe("the average transaction size", () => {
  it("averages the paid amounts per month and currency over a Kuwait year", async () => {
    const average = await averageTransactionSize(database.db, shop.merchantId, 2026);
    expect(average.currencies).toEqual(["KWD", "USD"]);
    expect(average.months).toHaveLength(12);
    expect(average.months[0].values).toEqual({
      KWD: { count: 0, amount: 0, average: null },
      USD: { count: 0, amount: 0, average: null },
    });
    expect(average.months[1].values).toEqual({
      KWD: { count: 1, amount: 50_000, average: 50_000 },
      USD: { count: 1, amount: 3_000, average: 3_000 },
    });
    // T1, T2, Y1, Y2, W1, P1, P2: 48.000 over 7 = 6.857142… → 6.857.
    expect(average.months[2].values).toEqual({
      KWD: { count: 7, amount: 48_000, average: 6_857 },
      USD: { count: 1, amount: 2_000, average: 2_000 },
    });
    const last = await averageTransactionSize(database.db, shop.merchantId, 2025);
    expect(last.months[2].values).toEqual({ KWD: { count: 2, amount: 140_000, average: 70_000 } });
  });
});

describe("recent orders", () => {
  it("lists the newest live transactions with the actions the user may take", async () => {
    const orders = await listRecentOrders(database.db, shop.merchantId, actor(), 5);
    expect(orders.map((order) => order.row.id)).toEqual([ids.T6, ids.T5, ids.T3, ids.T4, ids.T2]);
    expect(orders[0].actions).toEqual(expect.arrayContaining(["capture", "void"]));
    expect(orders[3].actions).toEqual(expect.arrayContaining(["email", "cancel", "delete"]));
    const viewer = await listRecentOrders(
      database.db,
      shop.merchantId,
      { is_superuser: 0, permissions: ["view_paymenttransaction"] },
      5,
    );
    expect(viewer.every((order) => order.actions.length === 0)).toBe(true);
  });
});

describe("the rollup", () => {
  it("kept by the app's writes equals the one rebuilt from the rows", async () => {
    const read = async () =>
      (
        await database.db
          .selectFrom("transaction_statistics")
          .selectAll()
          .orderBy("merchant_id")
          .orderBy("day")
          .orderBy("plugin")
          .orderBy("currency_code")
          .orderBy("gateway_code")
          .execute()
      )
        .filter((row) => row.paid_count || row.paid_amount || row.attempts_completed || row.attempts_succeeded)
        .map((row) => ({ ...row, paid_amount: Number(row.paid_amount) }));
    const running = await read();
    expect(running.length).toBeGreaterThan(10);
    await rebuildStatisticsRollup(database.db);
    expect(await read()).toEqual(running);
    await rebuildStatisticsRollup(database.db, shop.merchantId);
    expect(await read()).toEqual(running);
  });

  it("takes a deleted transaction out and a restored one back", async () => {
    const common = {
      merchantId: shop.merchantId,
      user: actor(),
      lang: "en" as const,
      baseUrl: "https://pay.example",
      addresses: { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" },
    };
    expect((await statistics({})).successRate).toMatchObject({ completed: 7, succeeded: 4 });
    expect(await runRowAction(database.db, { ...common, transactionId: ids.T7, action: "restore" })).toMatchObject({
      ok: true,
    });
    expect((await statistics({})).successRate).toMatchObject({ completed: 8, succeeded: 4 });
    expect(await runRowAction(database.db, { ...common, transactionId: ids.T4, action: "delete" })).toMatchObject({
      ok: true,
    });
    expect((await statistics({})).successRate).toMatchObject({ completed: 6, succeeded: 4 });
    expect(await runRowAction(database.db, { ...common, transactionId: ids.T4, action: "restore" })).toMatchObject({
      ok: true,
    });
    expect(await runRowAction(database.db, { ...common, transactionId: ids.T7, action: "delete" })).toMatchObject({
      ok: true,
    });
    expect((await statistics({})).successRate).toMatchObject({ completed: 7, succeeded: 4 });
  });
});
