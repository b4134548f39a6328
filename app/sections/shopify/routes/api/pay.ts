import type { Route } from "./+types/pay";
import { describe } from "~/presentation/texts.server";
import { apiDetail, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { platformAddresses } from "~/web/addresses.server";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "~/web/idempotency.server";
import { sha256 } from "~/lib/crypto.server";
import { getDbFrom } from "~/web/request-context.server";
import { startShopifyAttempt } from "../../presentation/pay.server";

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}

/**
 * POST /api/v1/shopify/transaction/pay/{id} (public spec §7), anonymous like the pay page:
 * `{gateway_code}` starts paying a handed-over transaction and answers `{redirect_url,
 * attempt_id}`; refused, DRF's field errors. An Idempotency-Key (or `submission_token`) makes a
 * repeated call start one attempt.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const lang = apiLanguage(request);
  const key = request.headers.get("Idempotency-Key");
  if (key && key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    return apiJson({ non_field_errors: [describe("api.idempotency_key_too_long", undefined, lang)] }, 400);
  const outcome = await startShopifyAttempt(getDbFrom(context), request, {
    transactionId: params.id,
    gatewayCode: str(body.gateway_code, 40),
    submissionToken: key ? (key.length <= 64 ? key : sha256(key)) : str(body.submission_token, 64),
    lang,
  });
  if (!outcome.ok) {
    if (outcome.status === 404) return apiDetail(request, "pay.not_found", 404);
    return apiJson({ [outcome.field]: [describe(outcome.error, outcome.params, lang)] }, 400);
  }
  const redirect = outcome.redirectUrl.startsWith("/")
    ? `${platformAddresses(request).publicBaseUrl}${outcome.redirectUrl}`
    : outcome.redirectUrl;
  return apiJson({ redirect_url: redirect, attempt_id: outcome.attemptId });
}
