import type { Route } from "./+types/public-pay-choices";
import { payChoicesFor } from "~/domain/payments/pay-page.server";
import { payChoicesBody } from "~/presentation/public-pay-view.server";
import { parseAmount } from "~/lib/money";
import { apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { acceptedGateways, findPublicBranch } from "../../domain/public-menu.server";
import { idParam, notFound, publicApiLanguage, requireMerchant } from "./public-api.server";

/** GET accepted-pay-choices?merchant=: the payment methods the merchant takes for its currency, cash on delivery included. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method !== "GET") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const merchantId = await requireMerchant(db, request);
  const { currency, gateways } = await acceptedGateways(db, merchantId, publicApiLanguage(request));
  return apiJson(
    gateways.map((gateway) => ({
      gateway: gateway.name,
      gateway_code: gateway.code,
      value: gateway.code,
      logo_url: gateway.logo_url,
      is_cash_on_delivery: gateway.kind === "cod",
      currency_code: currency,
    })),
  );
}

/** POST pay-choices {"branch", "total"?}: those methods priced (fees included) for the order's total. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const body = await readBody(request);
  const lang = publicApiLanguage(request);
  const branchId = idParam(body.branch);
  const branch = branchId === undefined ? undefined : await findPublicBranch(db, branchId);
  const merchantId = branch
    ? branch.merchant_id
    : body.branch === undefined
      ? await requireMerchant(db, request)
      : notFound(request);
  const { currency, gateways } = await acceptedGateways(db, merchantId, lang);
  let amount = 0;
  if (body.total !== undefined && body.total !== null && body.total !== "") {
    const parsed = parseAmount(String(body.total), currency);
    if (!parsed.ok) return apiErrors(request, { total: ["food_public.errors.invalid"] });
    amount = parsed.minor;
  }
  const choices = await payChoicesFor(
    db,
    { merchant_id: merchantId, pg_codes: gateways.map((gateway) => gateway.code).join(","), currency_code: currency },
    amount,
    lang,
  );
  return apiJson(payChoicesBody(choices, lang));
}
