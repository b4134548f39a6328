import type { Route } from "./+types/pay-choices";
import { payChoicesFor } from "~/domain/payments/pay-page.server";
import { payChoicesBody } from "~/presentation/public-pay-view.server";
import { parseAmount } from "~/lib/money";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { loadCollectForm } from "../../domain/collect.server";
import { findPublicCollector } from "../../domain/collectors.server";
import { apiFieldErrors, collectApiLanguage } from "./collect-api.server";

/**
 * POST pay-choices {"collector_id", "amount"?, "currency_code"?}: the collector's payment methods for
 * that currency, each priced (fees included) for the amount, and the default choice (public spec §4).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = collectApiLanguage(request);
  const body = await readBody(request);
  const publicId = typeof body.collector_id === "string" ? body.collector_id : "";
  const collector = publicId ? await findPublicCollector(db, publicId) : undefined;
  if (!publicId) return apiJson(apiFieldErrors({ collector_id: ["errors.required"] }, undefined, lang), 400);
  if (!collector || !collector.is_active) return apiDetail(request, "collect_public.errors.not_found", 404);
  const { restrictions } = await loadCollectForm(db, collector);
  const currency =
    typeof body.currency_code === "string" && body.currency_code
      ? body.currency_code.toUpperCase()
      : restrictions.defaultCurrency;
  if (!restrictions.currencies.includes(currency))
    return apiJson(apiFieldErrors({ currency_code: ["collect_public.errors.currency"] }, undefined, lang), 400);
  let amount = 0;
  if (body.amount !== undefined && body.amount !== null && body.amount !== "") {
    const parsed = parseAmount(String(body.amount), currency);
    if (!parsed.ok || parsed.minor <= 0)
      return apiJson(apiFieldErrors({ amount: ["pay.errors.positive_number"] }, undefined, lang), 400);
    amount = parsed.minor;
  }
  const choices = await payChoicesFor(
    db,
    {
      merchant_id: collector.merchant_id,
      pg_codes: restrictions.gateways.map((gateway) => gateway.code).join(","),
      currency_code: currency,
    },
    amount,
    lang,
  );
  return apiJson(payChoicesBody(choices, lang));
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
