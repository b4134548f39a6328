import type { Route } from "./+types/mpgs-api-session";
import { jsonBody, mpgsApiResponse, mpgsMerchantOf } from "./components/mpgs-api-answer.server";
import { initiateCheckout } from "~/domain/sandbox/mpgs-gateway.server";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";

/** POST …/session with apiOperation INITIATE_CHECKOUT: a Hosted Checkout session and its successIndicator. */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireSandbox();
  if (request.method !== "POST")
    return Response.json(
      { error: { cause: "INVALID_REQUEST", explanation: "Unsupported method" }, result: "ERROR" },
      { status: 405 },
    );
  const db = getDbFrom(context);
  const found = await mpgsMerchantOf(db, request, params.merchantId);
  if ("refused" in found) return found.refused;
  return mpgsApiResponse(
    await initiateCheckout(db, found.merchant, await jsonBody(request), new URL(request.url).origin),
  );
}
