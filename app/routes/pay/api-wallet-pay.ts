import type { Route } from "./+types/api-wallet-pay";
import { checkCheckoutValues } from "~/domain/payments/checkout-fields.server";
import { payAttemptWithWallet } from "~/domain/payments/wallet-payments.server";
import { isLanguage } from "~/lib/i18n";
import { describe } from "~/presentation/texts.server";
import { CHECKOUT_FIELD_SECTIONS, PAYABLE_SECTIONS } from "~/sections/registry";
import { platformAddresses } from "~/web/addresses.server";
import { apiJson, methodNotAllowed, readBody, str } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

const PROVIDERS = ["apple_pay", "google_pay"] as const;

/**
 * POST {gateway_code, provider, token, total, amount?, extra?}: pays with the wallet's token the
 * customer just authorized (the pay page's script sends it) and answers the result page to go to
 * (`redirect_url`) and whether it was paid (`state`). A refusal answers 400 with the field's message.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const body = await readBody(request);
  const provider = PROVIDERS.find((candidate) => candidate === body.provider);
  const refused = (field: string, code: string) => apiJson({ [field]: [describe(code, undefined, lang)] }, 400);
  if (!provider) return refused("provider", "pay.errors.wallet_unavailable");
  const extra = body.extra ?? {};
  if (typeof extra !== "object" || Array.isArray(extra))
    return refused("extra", "checkout_fields.errors.not_an_object");
  const values = Object.fromEntries(
    Object.entries(extra as Record<string, unknown>).map(([name, value]) => [name, str(value, 1000)]),
  );
  const recorded = await checkCheckoutValues(db, {
    transactionId: params.transactionId,
    sections: CHECKOUT_FIELD_SECTIONS,
    values,
    refuseUnknown: false,
  });
  if (!recorded.ok) {
    const errors = Object.fromEntries(
      Object.entries(recorded.errors).map(([name, list]) => [
        name,
        list.map((error) => describe(error.code, error.params, lang)),
      ]),
    );
    return apiJson({ extra: errors }, 400);
  }
  const outcome = await payAttemptWithWallet(db, {
    transactionId: params.transactionId,
    gatewayCode: str(body.gateway_code, 40),
    provider,
    // A wallet's token is an object (Apple's) or a string (Google's): the gateway is given it as text.
    token:
      typeof body.token === "string"
        ? body.token
        : body.token && typeof body.token === "object"
          ? JSON.stringify(body.token)
          : "",
    total: str(body.total, 20),
    amountText: body.amount === undefined || body.amount === null ? null : str(body.amount, 20),
    lang,
    addresses: platformAddresses(request),
    plugins: PAYABLE_SECTIONS,
    answers: recorded.answers,
  });
  if (!outcome.ok) {
    if (outcome.error === "pay.errors.not_found")
      return apiJson({ detail: describe("pay.not_found", undefined, lang) }, 404);
    return apiJson({ [outcome.field ?? "non_field_errors"]: [describe(outcome.error, outcome.params, lang)] }, 400);
  }
  return apiJson({ redirect_url: outcome.resultUrl, attempt_id: outcome.attemptId, state: outcome.state });
}
