import type { Route } from "./+types/payment-session";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { describe } from "~/presentation/texts.server";
import {
  apiDetail,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
  userOnPlugin,
} from "~/web/api.server";
import { platformAddresses } from "~/web/addresses.server";
import { getDbFrom } from "~/web/request-context.server";
import { handOverSession, PaymentSessionSchema, sessionErrors } from "../../domain/sessions.server";

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}

/**
 * POST /api/v1/plugins/shopify/payment-session: the merchant's shop platform hands over a payment
 * session (Shopify's Payments App request), with the merchant's API key (`Authorization: Api-Key
 * <key>`, a `shopify:write` scope). Answers 201 `{id, transaction_id, redirect_url}` where the
 * customer is sent; the same id again answers the same (200, Idempotent-Replayed), the same id
 * with another payment 422. Refusals in DRF's shape, in Accept-Language's language.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const user = userOnPlugin(signedIn, "shopify");
  if (!user || !hasFeature(await loadAvailableSections(db, user.merchantId), "shopify"))
    return apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, "add_paymenttransaction");
  const lang = apiLanguage(request);
  const parsed = PaymentSessionSchema.safeParse(await readBody(request));
  const translate = (errors: Record<string, string[]>, params?: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => describe(key, params, lang))]),
    );
  if (!parsed.success) return apiJson(translate(sessionErrors(parsed.error.issues)), 400);
  const outcome = await handOverSession(db, { merchantId: user.merchantId, userId: user.id, session: parsed.data });
  if (!outcome.ok) return apiJson(translate(outcome.errors, outcome.params), outcome.status);
  const body = {
    id: outcome.session.paymentId,
    transaction_id: outcome.session.transactionId,
    redirect_url: `${platformAddresses(request).publicBaseUrl}/${lang}/spf/payment-options/${outcome.session.transactionId}`,
  };
  return apiJson(body, outcome.replayed ? 200 : 201, outcome.replayed ? { "Idempotent-Replayed": "true" } : undefined);
}
