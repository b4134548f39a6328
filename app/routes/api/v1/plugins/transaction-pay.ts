import type { Route } from "./+types/transaction-pay";
import { startAttempt } from "~/domain/payments/attempts.server";
import { deliveryStateOf } from "~/domain/payments/delivery.server";
import { KUWAIT_AREAS_AR, KUWAIT_AREAS_EN } from "~/domain/payments/kuwait-areas";
import { checkCheckoutValues, type CheckoutAnswers } from "~/domain/payments/checkout-fields.server";
import { findPublicTransaction } from "~/domain/payments/pay-page.server";
import { PAYABLE_STATES } from "~/domain/payments/states";
import { publicPayView } from "~/presentation/public-pay-view.server";
import { platformAddresses } from "~/web/addresses.server";
import { apiDetail, apiErrors, apiJson, apiLanguage, methodNotAllowed, readBody, str } from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { describe } from "~/presentation/texts.server";
import { findSection, offersCheckoutFields } from "~/sections/registry";
import { transactionExtensions } from "~/sections/registry.server";
import { getDbFrom } from "~/web/request-context.server";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "~/web/idempotency.server";
import { sha256 } from "~/lib/crypto.server";

/** The public pay API serves the sections whose transactions customers pay on the pay page. */
const isPayable = (plugin: string) => findSection(plugin)?.transactions?.payable === true;

/** GET: the transaction as the pay page reads it. OPTIONS: the delivery configuration. Anonymous. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (!isPayable(params.plugin)) return apiDetail(request, "api.not_found", 404);
  const lang = apiLanguage(request);
  if (request.method === "OPTIONS") {
    const transaction = await findPublicTransaction(getDbFrom(context), params.id, [params.plugin]);
    if (!transaction) return apiDetail(request, "pay.not_found", 404);
    const delivery = await deliveryStateOf(getDbFrom(context), transaction.id);
    const t = translator(lang);
    return apiJson({
      multicheckout_enabled: delivery.mode !== "none",
      capture_delivery_address: delivery.mode !== "none",
      capture_delivery_location: delivery.mode === "address_location",
      country: "KW",
      kuwait_areas: { en_list: KUWAIT_AREAS_EN, ar_list: KUWAIT_AREAS_AR },
      first_popup: {
        text_en: translator("en")("delivery.welcome_message"),
        text_ar: translator("ar")("delivery.welcome_message"),
      },
      second_popup: {
        text_en: translator("en")("delivery.confirm_message"),
        text_ar: translator("ar")("delivery.confirm_message"),
      },
      // The customer's address stays private once the link cannot be paid any more.
      saved: PAYABLE_STATES.includes(transaction.state)
        ? { address: delivery.address, delivery_location: delivery.location, confirmed: delivery.confirmed }
        : { address: null, delivery_location: null, confirmed: delivery.confirmed },
      title: t("delivery.address_title"),
    });
  }
  const db = getDbFrom(context);
  // What a paid transaction bought, when its section gives it to download (an event's tickets).
  const ticketsUrl = (await transactionExtensions(params.plugin)?.ticketsUrl?.(db, params.id, lang)) ?? null;
  const view = await publicPayView(db, params.id, lang, [params.plugin], {
    checkoutFields: offersCheckoutFields(params.plugin),
    ticketsUrl,
    addresses: platformAddresses(request),
  });
  if (!view.ok) return apiDetail(request, view.code, view.code === "pay.paused" ? 423 : 404);
  return apiJson(view.body);
}

/**
 * POST {gateway_code, amount?, extra?}: starts paying and answers where to send the customer. The
 * Idempotency-Key header (or submission_token) makes a repeated call start one attempt. `extra`
 * holds the values of the section's checkout fields by name (GET's `checkout_fields`), checked
 * before the attempt starts and kept with it; refused, `{"extra": {"<name>": [...]}}` and none starts.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  if (!isPayable(params.plugin)) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  const gatewayCode = str(body.gateway_code, 40);
  if (!gatewayCode) return apiErrors(request, { gateway_code: ["errors.required"] });
  const key = request.headers.get("Idempotency-Key");
  if (key && key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    return apiErrors(request, { non_field_errors: ["api.idempotency_key_too_long"] });
  const lang = apiLanguage(request);
  let answers: CheckoutAnswers | null = null;
  if (offersCheckoutFields(params.plugin)) {
    const extra = body.extra ?? {};
    if (typeof extra !== "object" || Array.isArray(extra))
      return apiErrors(request, { extra: ["checkout_fields.errors.not_an_object"] });
    const recorded = await checkCheckoutValues(getDbFrom(context), {
      transactionId: params.id,
      sections: [params.plugin],
      values: extra as Record<string, unknown>,
      refuseUnknown: true,
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
    answers = recorded.answers;
  }
  const outcome = await startAttempt(getDbFrom(context), {
    plugins: [params.plugin],
    transactionId: params.id,
    gatewayCode,
    amountText: body.amount === undefined || body.amount === null ? null : str(body.amount, 20),
    submissionToken: key ? submissionTokenOf(key) : str(body.submission_token, 64),
    answers,
    lang,
    addresses: platformAddresses(request),
  });
  if (!outcome.ok) {
    if (outcome.error === "pay.errors.not_found") return apiDetail(request, "pay.not_found", 404);
    return apiJson({ [outcome.field ?? "non_field_errors"]: [describe(outcome.error, outcome.params, lang)] }, 400);
  }
  const redirect = outcome.redirectUrl.startsWith("/")
    ? `${platformAddresses(request).publicBaseUrl}${outcome.redirectUrl}`
    : outcome.redirectUrl;
  return apiJson({ redirect_url: redirect, attempt_id: outcome.attemptId, message: translator(lang)("pay.title") });
}

/** An attempt keeps a token of up to 64 characters: a longer key is kept as its SHA-256, never cut (two keys would become one). */
function submissionTokenOf(key: string) {
  return key.length <= 64 ? key : sha256(key);
}
