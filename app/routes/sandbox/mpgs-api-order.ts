import type { Route } from "./+types/mpgs-api-order";
import { mpgsApiResponse, mpgsMerchantOf } from "./components/mpgs-api-answer.server";
import { retrieveOrder } from "~/domain/sandbox/mpgs-gateway.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/** GET …/order/{orderId}: RETRIEVE_ORDER. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireSandbox();
  const db = getDbFrom(context);
  const found = await mpgsMerchantOf(db, request, params.merchantId);
  if ("refused" in found) return found.refused;
  return mpgsApiResponse(await retrieveOrder(db, found.merchant, params.orderId));
}
