import type { Route } from "./+types/orders-detail";
import { orderDetails } from "../../domain/order-list.server";
import { orderIdOf, requireOrdersApi, serializeOrder } from "../../presentation/orders.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";

/** GET order/{id}: one of the merchant's orders with its lines, customer, address, totals and payment. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, lang } = await requireOrdersApi(request, context, "view_order");
  const id = orderIdOf(params.id);
  const order = id ? await orderDetails(db, user.merchantId, id) : undefined;
  if (!order) return apiDetail(request, "api.not_found", 404);
  return apiJson(serializeOrder(order, lang));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
