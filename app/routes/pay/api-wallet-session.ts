import type { Route } from "./+types/api-wallet-session";
import { walletOffersFor } from "~/domain/payments/wallet-payments.server";
import { requestMerchantSession } from "~/domain/payments/wallet-settings.server";
import { describe } from "~/presentation/texts.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";
import { platformAddresses } from "~/web/addresses.server";
import { apiJson, methodNotAllowed, readBody, str } from "~/web/api.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";

/**
 * POST {validation_url}: Apple Pay's merchant validation for a pay page that offers Apple Pay. The
 * server checks the URL is Apple's, calls it with the installation's certificate and answers
 * Apple's merchant session as it came, for the page to complete the validation with.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const addresses = platformAddresses(request);
  const body = await readBody(request);
  const offers = await walletOffersFor(db, params.transactionId, PAYABLE_SECTIONS, addresses);
  if (!offers.applePay)
    return apiJson({ non_field_errors: [describe("pay.errors.wallet_unavailable", undefined, lang)] }, 400);
  const outcome = await requestMerchantSession(db, {
    validationUrl: str(body.validation_url, 2000),
    domain: new URL(addresses.publicBaseUrl).hostname,
    sandboxOrigins: [new URL(addresses.publicBaseUrl).origin, new URL(addresses.internalBaseUrl).origin],
    internalBaseUrl: addresses.internalBaseUrl,
  });
  if (!outcome.ok)
    return apiJson(
      { [outcome.field ?? "non_field_errors"]: [describe(outcome.code, outcome.params, lang)] },
      outcome.field ? 400 : 502,
    );
  return apiJson(outcome.session);
}
