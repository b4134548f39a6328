import type { Route } from "./+types/orders-scan-permission";
import { scanPermission } from "../../domain/order-qr.server";
import { requireOrdersApi } from "../../presentation/orders.server";
import { apiJson, methodNotAllowed } from "~/web/api.server";

/**
 * GET order/scan-permission/{code}: whether the user may scan the order the QR code names
 * (`{has_permission, order_id}`); a forged code or another merchant's order answers false.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db } = await requireOrdersApi(request, context, "scan_order", "fulfillment");
  return apiJson(await scanPermission(db, user, (params.code ?? "").slice(0, 200)));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
