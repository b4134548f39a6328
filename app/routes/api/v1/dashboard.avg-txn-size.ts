import type { Route } from "./+types/dashboard.avg-txn-size";
import { averageSizeYears } from "~/domain/statistics/periods";
import { averageTransactionSize } from "~/domain/statistics/statistics.server";
import { apiErrors, apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { now } from "~/lib/clock.server";
import { toDecimalString } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";

/**
 * GET dashboard/avg_txn_size (year, default this Kuwait year): the average paid transaction per
 * month of the year, per currency, as a decimal string (null for a month without any), with the
 * count it averages. `years` are the ten the home page offers. Needs view_paymenttransaction_statistics.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "view_paymenttransaction_statistics");
  const years = averageSizeYears(now());
  const text = new URL(request.url).searchParams.get("year");
  const year = text === null || text === "" ? years[0] : /^\d{4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(year >= 2000 && year <= years[0])) return apiErrors(request, { year: ["api.invalid_choice"] });
  const average = await averageTransactionSize(getDbFrom(context), user.merchantId, year);
  return apiJson({
    year,
    years,
    currencies: average.currencies,
    results: average.months.map((month) => ({
      month: month.month,
      values: average.currencies.map((currency) => {
        const figure = month.values[currency];
        return {
          currency_code: currency,
          value: figure.average === null ? null : toDecimalString(figure.average, currency),
          count: figure.count,
        };
      }),
    })),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
