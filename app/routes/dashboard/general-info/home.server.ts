import { DateTime } from "luxon";
import { data, type RouterContextProvider } from "react-router";
import { can } from "~/domain/identity/permissions";
import { loadAvailableSections, type AvailableSections } from "~/domain/merchants/merchants.server";
import { SECTIONS } from "~/sections/registry";
import {
  averageSizeYears,
  PERIOD_CHOICES,
  resolvePeriod,
  type ResolvedPeriod,
  type TimeRange,
} from "~/domain/statistics/periods";
import {
  averageTransactionSize,
  listRecentActions,
  listRecentOrders,
  loadStatistics,
  type StatisticsReport,
} from "~/domain/statistics/statistics.server";
import { runRowAction } from "~/domain/payments/transaction-actions.server";
import { auditActor, auditTitle, describeAuditEntry } from "~/presentation/audit.server";
import { describeRowAction } from "~/presentation/transactions.server";
import { doneStatusOf, messageOf, statusOf } from "~/web/outcomes.server";
import { platformAddresses } from "~/web/addresses.server";
import { now } from "~/lib/clock.server";
import { DISPLAY_ZONE, formatCount, formatDateTime } from "~/lib/format";
import { requireUser } from "~/web/guards.server";
import { translator } from "~/lib/i18n.server";
import { isLanguage, PAGE_NAMESPACES, type Language } from "~/lib/i18n";
import { pageTexts } from "~/lib/page-texts.server";
import { formatAmount, toDecimalString } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { readFormData } from "~/web/form-data.server";

type Context = Readonly<RouterContextProvider>;

const locale = (lang: Language) => (lang === "ar" ? "ar-KW-u-nu-latn" : "en-US");
const kuwaitTime = (iso: string, lang: Language) =>
  DateTime.fromISO(iso, { zone: "utc" }).setZone(DISPLAY_ZONE).setLocale(locale(lang));

/**
 * Kept left to right inside Arabic text (Unicode isolates): "+4.3%" and "78%" read as in the tiles'
 * large figures, and "-0.5 نقطة" keeps its number before the unit.
 */
const isolate = (text: string) => `\u2066${text}\u2069`;

/** Growth with its sign, a plus when not negative: "+12.5%", "-3%", "+2.1 pts". */
function formatGrowth(value: number | null, lang: Language, unit: "percent" | "points") {
  if (value === null) return null;
  const number = new Intl.NumberFormat(locale(lang), { maximumFractionDigits: 1, signDisplay: "always" }).format(value);
  const t = translator(lang);
  return unit === "percent"
    ? isolate(t("statistics.growth_percent", { value: number }))
    : t("statistics.growth_points", { value: isolate(number) });
}

function formatPercent(value: number | null, lang: Language) {
  return value === null ? "—" : isolate(translator(lang)("statistics.percent", { value: formatCount(value, lang) }));
}

/** A chart bucket's label: "09 AM", "08 Mar" or "Mar 2026". */
function bucketLabel(bucket: string, lang: Language) {
  if (bucket.length === 13)
    return DateTime.fromISO(`${bucket}:00`, { zone: DISPLAY_ZONE }).setLocale(locale(lang)).toFormat("hh a");
  if (bucket.length === 10)
    return DateTime.fromISO(bucket, { zone: DISPLAY_ZONE }).setLocale(locale(lang)).toFormat("dd LLL");
  return DateTime.fromISO(`${bucket}-01`, { zone: DISPLAY_ZONE }).setLocale(locale(lang)).toFormat("LLL yyyy");
}

/** A span in words: whole days as dates ("01 Mar – 07 Mar 2026"), anything else with times. */
function rangeLabel(range: TimeRange, lang: Language) {
  const from = kuwaitTime(range.from, lang);
  const to = kuwaitTime(range.to, lang);
  if (to <= from) return "—";
  const wholeDays = from.hour === 0 && from.minute === 0 && to.hour === 0 && to.minute === 0 && to.second === 0;
  if (wholeDays) {
    const last = to.minus({ days: 1 });
    return last.hasSame(from, "day")
      ? from.toFormat("dd LLL yyyy")
      : `${from.toFormat("dd LLL yyyy")} – ${last.toFormat("dd LLL yyyy")}`;
  }
  const start = formatDateTime(range.from, lang);
  return to.hasSame(from, "day")
    ? `${start} – ${to.toFormat("hh:mm a")}`
    : `${start} – ${formatDateTime(range.to, lang)}`;
}

/** Minor units as a plain number for a chart's scale; the texts beside it stay exact. */
const chartNumber = (minor: number, currency: string) => Number(toDecimalString(minor, currency));

/** `canList`: whether the user may open the transaction list the paid tile links to. */
function presentStatistics(
  report: StatisticsReport,
  lang: Language,
  sectionPaths: Map<string, string>,
  canList: boolean,
) {
  const t = translator(lang);
  const { period } = report;
  const dates = `created_after=${period.dateAfter}&created_before=${period.dateBefore}`;
  const total = report.paidPerGateway.reduce((sum, gateway) => sum + gateway.value, 0);
  const name = (gateway: { name_en: string; name_ar: string }) => (lang === "ar" ? gateway.name_ar : gateway.name_en);
  const moneyTexts = (amounts: { currency: string; value: number }[]) =>
    amounts.map((amount) => formatAmount(amount.value, amount.currency, lang));
  return {
    lang,
    texts: pageTexts(lang, PAGE_NAMESPACES.statistics),
    current: rangeLabel(period.current, lang),
    previous: rangeLabel(period.previous, lang),
    granularity: period.granularity,
    listUrl: canList ? `/${lang}/transactions?state=paid&${dates}` : null,
    buckets: report.buckets.map((bucket) => ({ key: bucket, label: bucketLabel(bucket, lang) })),
    totalPaid: {
      text: formatCount(report.totalPaid.value, lang),
      previous: formatCount(report.totalPaid.previous, lang),
      growth: report.totalPaid.growth,
      growthText: formatGrowth(report.totalPaid.growth, lang, "percent"),
      chart: report.totalPaid.chart,
      chartTexts: report.totalPaid.chart.map((value) => formatCount(value, lang)),
    },
    amountPaid: report.amountPaid.map((figure) => ({
      currency: figure.currency,
      text: formatAmount(figure.value, figure.currency, lang),
      previous: formatAmount(figure.previous, figure.currency, lang),
      growth: figure.growth,
      growthText: formatGrowth(figure.growth, lang, "percent"),
      chart: figure.chart.map((value) => chartNumber(value, figure.currency)),
      chartTexts: figure.chart.map((value) => formatAmount(value, figure.currency, lang)),
    })),
    successRate: {
      text: formatPercent(report.successRate.value, lang),
      previous: formatPercent(report.successRate.previous, lang),
      growth: report.successRate.growth,
      growthText: formatGrowth(report.successRate.growth, lang, "points"),
      detail: t("statistics.attempts_detail", {
        succeeded: formatCount(report.successRate.succeeded, lang),
        completed: formatCount(report.successRate.completed, lang),
      }),
      chart: report.successRate.chart,
      chartTexts: report.successRate.chart.map((value) => formatPercent(value, lang)),
    },
    paidPerGateway: report.paidPerGateway.map((gateway) => ({
      code: gateway.code,
      name: name(gateway),
      logo: gateway.logo_url,
      value: gateway.value,
      text: formatCount(gateway.value, lang),
      share: formatPercent(total ? Math.round((gateway.value / total) * 100) : null, lang),
      amounts: moneyTexts(gateway.amounts),
    })),
    successRatePerGateway: report.successRatePerGateway.map((gateway) => ({
      code: gateway.code,
      name: name(gateway),
      logo: gateway.logo_url,
      value: gateway.value ?? 0,
      text: formatPercent(gateway.value, lang),
      detail: t("statistics.attempts_detail", {
        succeeded: formatCount(gateway.succeeded, lang),
        completed: formatCount(gateway.completed, lang),
      }),
    })),
    productWiseSales: report.productWiseSales.map((product) => {
      const path = sectionPaths.get(product.plugin);
      return {
        plugin: product.plugin,
        name: t(`sections.${product.plugin}`, { defaultValue: product.plugin }),
        count: product.count,
        text: formatCount(product.count, lang),
        amounts: moneyTexts(product.amounts),
        url: path ? `/${lang}/${path}/transactions?state=paid&${dates}` : null,
      };
    }),
  };
}

export type HomeStatistics = ReturnType<typeof presentStatistics>;

function presentAverage(average: Awaited<ReturnType<typeof averageTransactionSize>>, lang: Language) {
  return {
    year: average.year,
    currencies: average.currencies,
    months: average.months.map((month) => ({
      label: DateTime.fromISO(`${month.month}-01`).setLocale(locale(lang)).toFormat("LLL"),
      values: Object.fromEntries(
        average.currencies.map((currency) => [
          currency,
          month.values[currency].average === null ? null : chartNumber(month.values[currency].average!, currency),
        ]),
      ),
      texts: Object.fromEntries(
        average.currencies.map((currency) => {
          const figure = month.values[currency];
          return [currency, figure.average === null ? "—" : formatAmount(figure.average, currency, lang)];
        }),
      ),
      counts: Object.fromEntries(
        average.currencies.map((currency) => [currency, formatCount(month.values[currency].count, lang)]),
      ),
    })),
  };
}

/**
 * The home page: for users with the statistics right, the period's figures, the average size and
 * the charts; recent orders for those who may view transactions; recent actions for everyone (the
 * merchant's, or the user's own).
 */
export async function loadHome({
  context,
  request,
  params,
}: {
  context: Context;
  request: Request;
  params: { lang?: string };
}) {
  const auth = requireUser(context, request);
  const db = getDbFrom(context);
  const lang: Language = isLanguage(params.lang) ? params.lang : "en";
  const t = translator(lang);
  const query = new URL(request.url).searchParams;
  const at = now();
  const canStatistics = can(auth.user, "view_paymenttransaction_statistics");
  const canOrders = can(auth.user, "view_paymenttransaction");
  const years = averageSizeYears(at);
  const year = years.find((candidate) => String(candidate) === query.get("txn_avg_size_year")) ?? years[0];
  const outcome = resolvePeriod(
    { period: query.get("period"), date_after: query.get("date_after"), date_before: query.get("date_before") },
    at,
  );
  const period: ResolvedPeriod | null = outcome.ok ? outcome.value : null;

  const [report, average, orders, actions, sections, gatewayNames] = await Promise.all([
    canStatistics && period ? loadStatistics(db, auth.user.merchantId, period, at) : null,
    canStatistics ? averageTransactionSize(db, auth.user.merchantId, year) : null,
    canOrders ? listRecentOrders(db, auth.user.merchantId, auth.user, 10) : [],
    listRecentActions(db, auth.user.merchantId, auth.user, 10),
    canStatistics ? loadAvailableSections(db, auth.user.merchantId) : ({} as AvailableSections),
    canOrders
      ? db
          .selectFrom("gateways")
          .select(["code", "name_en", "name_ar"])
          .where("merchant_id", "=", auth.user.merchantId)
          .execute()
      : [],
  ]);
  const sectionPaths = new Map(
    SECTIONS.filter((section) => sections[section.key]?.includes("transactions")).map((section) => [
      section.key,
      section.path,
    ]),
  );
  const requested = query.get("period") ?? "day";
  return {
    lang,
    texts: pageTexts(lang, PAGE_NAMESPACES.statistics),
    username: auth.user.username,
    canStatistics,
    canOrders,
    query: {
      period: (PERIOD_CHOICES as readonly string[]).includes(requested) ? requested : "day",
      dateAfter: query.get("date_after") ?? "",
      dateBefore: query.get("date_before") ?? "",
      year: query.get("txn_avg_size_year") ? year : null,
    },
    periods: PERIOD_CHOICES.map((value) => ({ value, label: t(`statistics.periods.${value}`) })),
    periodErrors: outcome.ok ? {} : outcome.incomplete ? {} : outcome.errors,
    incomplete: !outcome.ok && outcome.incomplete,
    statistics: report ? presentStatistics(report, lang, sectionPaths, canOrders) : null,
    average: average ? { ...presentAverage(average, lang), years } : null,
    recentOrders: orders.map(({ row, actions: names }) => {
      const gateway = gatewayNames.find((candidate) => candidate.code === row.gateway_code);
      return {
        id: row.id,
        orderNo: row.order_no,
        email: row.customer_email ?? "—",
        amount: toDecimalString(row.amount, row.currency_code),
        currency: row.currency_code,
        state: row.state,
        gateway: gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : null,
        created: formatDateTime(row.created_at, lang),
        url: `/${lang}/transactions/${row.id}?type=${row.plugin}`,
        actions: names.map((name) => ({
          ...describeRowAction(name, row, lang, ""),
          operation: name === "refund" || name === "capture" || name === "void",
        })),
      };
    }),
    recentActions: actions.map((entry) => ({
      id: entry.id,
      actor: auditActor(entry, lang),
      description: auditTitle(entry, lang),
      detail: describeAuditEntry(entry, lang),
      timestamp: formatDateTime(entry.created_at, lang),
    })),
  };
}

export type HomeData = Awaited<ReturnType<typeof loadHome>>;
export type HomeNotice = { color: "green" | "red"; message: string };

/** A recent order's delete or other action that needs no amount: the same rules as the lists. */
export async function homeAction({
  context,
  request,
  params,
}: {
  context: Context;
  request: Request;
  params: { lang?: string };
}) {
  const auth = requireUser(context, request);
  const lang: Language = isLanguage(params.lang) ? params.lang : "en";
  const t = translator(lang);
  const form = await readFormData(request);
  const [action, id] = String(form.get("row_command") ?? "").split(":");
  // Refunds, captures and voids ask for an amount and a confirmation: the details page has that dialog.
  if (!action || !id || action === "refund" || action === "capture" || action === "void") {
    return data<HomeNotice>({ color: "red", message: t("actions.not_available") }, { status: 400 });
  }
  const outcome = await runRowAction(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    user: auth.user,
    transactionId: id,
    action,
    lang,
    baseUrl: linkBaseUrl(),
    addresses: platformAddresses(request),
  });
  return data<HomeNotice>(
    { color: outcome.ok ? "green" : "red", message: messageOf(outcome, lang) },
    { status: outcome.ok ? doneStatusOf(outcome) : statusOf(outcome) },
  );
}
