import type { Route } from "./+types/mpgs-api-transaction";
import { jsonBody, mpgsApiResponse, mpgsMerchantOf } from "./components/mpgs-api-answer.server";
import { putTransaction, retrieveTransaction } from "~/domain/sandbox/mpgs-gateway.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/** GET …/order/{orderId}/transaction/{transactionId}: RETRIEVE_TRANSACTION. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireSandbox();
  const db = getDbFrom(context);
  const found = await mpgsMerchantOf(db, request, params.merchantId);
  if ("refused" in found) return found.refused;
  return mpgsApiResponse(await retrieveTransaction(db, found.merchant, params.orderId, params.transactionId));
}

/** PUT: CAPTURE, REFUND, VOID, or a wallet's PAY/AUTHORIZE, under the merchant's own transaction id. */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireSandbox();
  if (request.method !== "PUT")
    return Response.json(
      { error: { cause: "INVALID_REQUEST", explanation: "Unsupported method" }, result: "ERROR" },
      { status: 405 },
    );
  const db = getDbFrom(context);
  const found = await mpgsMerchantOf(db, request, params.merchantId);
  if ("refused" in found) return found.refused;
  return mpgsApiResponse(
    await putTransaction(db, found.merchant, params.orderId, params.transactionId, await jsonBody(request)),
  );
}
