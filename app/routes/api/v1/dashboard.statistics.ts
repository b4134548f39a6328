import type { Route } from "./+types/dashboard.statistics";
import { averageSizeYears, PERIOD_CHOICES, resolvePeriod } from "~/domain/statistics/periods";
import { loadStatistics, type GatewayInfo, type MoneyFigure } from "~/domain/statistics/statistics.server";
import {
  apiErrors,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { now } from "~/lib/clock.server";
import { translator } from "~/lib/i18n.server";
import type { Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";

/**
 * GET dashboard/statistics (period, date_after, date_before): the statistics home's figures
 * (dashboard spec §3 Statistics; docs/decisions/0009) — total_paid, total_amount_paid and
 * success_rate, each with its previous figure, growth and chart; paid_per_gateway,
 * success_rate_per_gateway and product_wise_sales. Amounts are decimal strings of their currency.
 * OPTIONS: the period choices and the parameters. Needs view_paymenttransaction_statistics.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "view_paymenttransaction_statistics");
  const lang = apiLanguage(request);
  const t = translator(lang);
  if (request.method === "OPTIONS") {
    return apiJson({
      name: t("statistics.title"),
      actions: {
        GET: {
          period: {
            type: "choice",
            required: false,
            default: "day",
            label: t("statistics.period"),
            choices: PERIOD_CHOICES.map((value) => ({ value, display_name: t(`statistics.periods.${value}`) })),
          },
          date_after: {
            type: "date",
            required: false,
            label: t("statistics.from"),
            help_text: t("statistics.custom_help"),
          },
          date_before: {
            type: "date",
            required: false,
            label: t("statistics.to"),
            help_text: t("statistics.custom_help"),
          },
        },
      },
      txn_avg_size_years: averageSizeYears(now()),
    });
  }
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  const params = new URL(request.url).searchParams;
  const at = now();
  const period = resolvePeriod(
    { period: params.get("period"), date_after: params.get("date_after"), date_before: params.get("date_before") },
    at,
  );
  if (!period.ok)
    return apiErrors(request, Object.fromEntries(Object.entries(period.errors).map(([field, key]) => [field, [key]])));
  const report = await loadStatistics(getDbFrom(context), user.merchantId, period.value, at);
  const money = (figure: MoneyFigure) => ({
    currency_code: figure.currency,
    value: toDecimalString(figure.value, figure.currency),
  });
  const chart = <T>(values: T[]) => values.map((value, index) => ({ label: report.buckets[index], value }));
  const { value: resolved } = period;
  return apiJson({
    period: resolved.period,
    date_after: resolved.dateAfter,
    date_before: resolved.dateBefore,
    current: resolved.current,
    previous: resolved.previous,
    granularity: resolved.granularity,
    total_paid: {
      ...report.totalPaid,
      chart: chart(report.totalPaid.chart),
      url: `/${lang}/transactions?state=paid&created_after=${resolved.dateAfter}&created_before=${resolved.dateBefore}`,
    },
    total_amount_paid: report.amountPaid.map((figure) => ({
      currency_code: figure.currency,
      value: toDecimalString(figure.value, figure.currency),
      previous: toDecimalString(figure.previous, figure.currency),
      growth: figure.growth,
      chart: chart(figure.chart.map((value) => toDecimalString(value, figure.currency))),
    })),
    success_rate: { ...report.successRate, chart: chart(report.successRate.chart) },
    paid_per_gateway: report.paidPerGateway.map((gateway) => ({
      ...describeGateway(gateway, lang),
      value: gateway.value,
      amounts: gateway.amounts.map(money),
    })),
    success_rate_per_gateway: report.successRatePerGateway.map((gateway) => ({
      ...describeGateway(gateway, lang),
      value: gateway.value,
      completed: gateway.completed,
      succeeded: gateway.succeeded,
    })),
    product_wise_sales: report.productWiseSales.map((product) => ({
      product: product.plugin,
      name: translator(lang)(`sections.${product.plugin}`, { defaultValue: product.plugin }),
      value: product.count,
      amounts: product.amounts.map(money),
    })),
  });
}

function describeGateway(gateway: GatewayInfo, lang: Language) {
  const logo =
    gateway.logo_url && gateway.logo_url.startsWith("/") ? `${linkBaseUrl()}${gateway.logo_url}` : gateway.logo_url;
  return { code: gateway.code, name: lang === "ar" ? gateway.name_ar : gateway.name_en, logo };
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
