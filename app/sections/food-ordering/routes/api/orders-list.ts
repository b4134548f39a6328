import type { Route } from "./+types/orders-list";
import { DELIVERY_TYPES, ORDER_FILTER_NAMES, ORDER_PAGE_SIZES, ORDER_STATUSES } from "../../domain/order-filters";
import { listOrders, parseOrderQuery } from "../../domain/order-list.server";
import { requireOrdersApi, serializeOrderRow } from "../../presentation/orders.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";

/**
 * GET order: the merchant's orders matching the filters (status, delivery_type, branch,
 * created_after, created_before, q over number, name, phone and id) with page and page_size;
 * answers {count, results}. OPTIONS: the filters, statuses, delivery types and page sizes.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireOrdersApi(request, context, "view_order");
  if (request.method === "OPTIONS") {
    return apiJson({
      filters: ORDER_FILTER_NAMES,
      statuses: ORDER_STATUSES,
      delivery_types: DELIVERY_TYPES,
      page_sizes: ORDER_PAGE_SIZES,
    });
  }
  const query = parseOrderQuery(new URL(request.url).searchParams);
  if (Object.keys(query.errors).length)
    return apiErrors(request, Object.fromEntries(Object.entries(query.errors).map(([field, key]) => [field, [key]])));
  const list = await listOrders(db, {
    merchantId: user.merchantId,
    filters: query.filters,
    page: query.page,
    pageSize: query.pageSize,
  });
  return apiJson({ count: list.count, results: list.rows.map((row) => serializeOrderRow(row, lang)) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
