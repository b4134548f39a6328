import type { Route } from "./+types/public-pay-choices";
import { payChoicesFor } from "~/domain/payments/pay-page.server";
import { payChoicesBody } from "~/presentation/public-pay-view.server";
import { parseAmount } from "~/lib/money";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { CheckoutItemSchema, problemsOf } from "../../domain/checkout-schema.server";
import { shopGateways } from "../../domain/checkout.server";
import { priceItems } from "../../domain/pricing.server";
import { nestedProblems, publicApiLanguage, requireShop, tooMany } from "./public-api.server";
import { discountRule, overLimit } from "../../presentation/throttles.server";
import { z } from "zod";

const ChoicesSchema = z.object({
  items: z.array(CheckoutItemSchema).max(50).optional(),
  discount_code: z.string().trim().max(40).nullable().optional(),
});

/**
 * POST pay-choices {"items"?, "discount_code"?} or {"total"?}: the shop's payment methods priced
 * (fees included) for the order's total, which the server computes from the items when they are
 * given; a total the caller states only prices the choices, it never becomes an order's price.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const body = await readBody(request);
  const lang = publicApiLanguage(request);
  const shop = await requireShop(db, request, body);
  const parsed = ChoicesSchema.safeParse(body);
  if (!parsed.success) return apiJson(nestedProblems(problemsOf(parsed.error.issues), lang), 400);
  let amount = 0;
  if (parsed.data.items?.length) {
    // A discount code priced here is a code tried: counted with the shop's other discount tries.
    if (parsed.data.discount_code && (await overLimit(db, [discountRule(context.get(clientAddressContext))])))
      return tooMany(request, "catalogue_public.errors.discount_throttled");
    const { quote, problems } = await priceItems(db, shop, parsed.data.items, parsed.data.discount_code || null);
    if (Object.keys(problems).length) return apiJson(nestedProblems(problems, lang), 400);
    amount = quote.total;
  } else if (body.total !== undefined && body.total !== null && body.total !== "") {
    const total = parseAmount(String(body.total), shop.currency);
    if (!total.ok) return apiJson(nestedProblems({ total: { code: "catalogue_public.errors.invalid" } }, lang), 400);
    amount = total.minor;
  }
  const gateways = await shopGateways(db, shop, lang);
  const choices = await payChoicesFor(
    db,
    {
      merchant_id: shop.merchantId,
      pg_codes: gateways.map((gateway) => gateway.code).join(","),
      currency_code: shop.currency,
    },
    amount,
    lang,
  );
  return apiJson(payChoicesBody(choices, lang));
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
