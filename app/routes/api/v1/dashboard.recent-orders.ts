import type { Route } from "./+types/dashboard.recent-orders";
import { listRecentOrders } from "~/domain/statistics/statistics.server";
import { describeRowAction } from "~/presentation/transactions.server";
import { apiJson, apiLanguage, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { toDecimalString } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";

/**
 * GET dashboard/recent_orders (limit, 1–50, default 10): the merchant's newest live transactions —
 * id, type, customer_email, amount, currency_code, state, created — each with the actions the
 * user may take now, posted (or, for delete, sent as DELETE with the id) to their `url`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "view_paymenttransaction");
  const text = new URL(request.url).searchParams.get("limit");
  const limit = text && /^\d{1,2}$/.test(text) ? Math.min(50, Math.max(1, Number(text))) : 10;
  const lang = apiLanguage(request);
  const orders = await listRecentOrders(getDbFrom(context), user.merchantId, user, limit);
  return apiJson({
    results: orders.map(({ row, actions }) => ({
      id: row.id,
      order_no: row.order_no,
      type: row.plugin,
      customer_email: row.customer_email,
      amount: toDecimalString(row.amount, row.currency_code),
      currency_code: row.currency_code,
      state: row.state,
      created: row.created_at,
      actions: actions.map((name) =>
        describeRowAction(name, row, lang, `/api/v1/plugins/${row.plugin}/transaction/actions/${row.id}/${name}/`),
      ),
    })),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
