import type { Route } from "./+types/currency-statistics";
import { listStatistics } from "~/domain/transactions/totals.server";
import { apiJson, methodNotAllowed, requireApiPermission } from "~/web/api.server";
import { toDecimalString } from "~/lib/money";
import { requireTransactionSection } from "~/sections/transaction-api.server";

/**
 * GET plugins/{plugin}/currency_statistics: the list's statistics strip (dashboard spec §3 list
 * statistics) — generated, received and balance per currency, values as decimal strings.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, section } = await requireTransactionSection(request, context, params.plugin);
  requireApiPermission(request, user, "view_paymenttransaction_statistics");
  const statistics = await listStatistics(db, user.merchantId, section.key);
  const decimals = (values: { currency_code: string; value: number }[]) =>
    values.map((entry) => ({
      currency_code: entry.currency_code,
      value: toDecimalString(entry.value, entry.currency_code),
    }));
  return apiJson({
    generated: decimals(statistics.generated),
    received: decimals(statistics.received),
    balance: decimals(statistics.balance),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
