import type { Route } from "./+types/public-checkout";
import { methodNotAllowed, readBody } from "~/web/api.server";
import { PUBLIC_CALLER, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { CheckoutSchema, problemsOf } from "../../domain/checkout-schema.server";
import { decimalTotal, placeOrder } from "../../domain/checkout.server";
import { checkoutRule, discountRule, overLimit } from "../../presentation/throttles.server";
import { nestedProblems, publicApiLanguage, requireShop, tooMany } from "./public-api.server";

/**
 * POST invoice/checkout: the issue's payload {"items": [{"slug", "quantity"}], "discount_code",
 * "customer_name", "customer_email", "customer_phone", "gateway_code"} (and optionally "store"),
 * answered 201 {"id", "number", "checkout_url", "total", "currency_code"} or 400 with DRF-style
 * errors naming the line ({"items": [{}, {"quantity": ["Only 3 left."]}]}), in the caller's language.
 * Prices come from the shop, never from the body. Anonymous, throttled per address (with the
 * page's checkouts, and with the discount codes tried when one is sent); an Idempotency-Key makes a
 * retry order once.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const body = await readBody(request);
  const shop = await requireShop(db, request, body);
  const address = context.get(clientAddressContext);
  if (await overLimit(db, [checkoutRule(address)])) return tooMany(request, "catalogue_public.errors.throttled");
  const code = typeof body.discount_code === "string" ? body.discount_code.trim() : "";
  if (code && (await overLimit(db, [discountRule(address)])))
    return tooMany(request, "catalogue_public.errors.discount_throttled");
  return respondOnce(
    request,
    { db, merchantId: shop.merchantId, caller: PUBLIC_CALLER, scope: "catalogue_checkout", body },
    async () => {
      const parsed = CheckoutSchema.safeParse(body);
      if (!parsed.success) return { status: 400, body: nestedProblems(problemsOf(parsed.error.issues), lang) };
      const placed = await placeOrder(db, {
        merchantId: shop.merchantId,
        request: parsed.data,
        lang,
        baseUrl: linkBaseUrl(),
        clientAddress: address,
      });
      if (!placed.ok) return { status: 400, body: nestedProblems(placed.problems, lang) };
      const { order } = placed;
      return {
        status: 201,
        body: {
          id: order.id,
          number: order.number,
          order_no: order.orderNo,
          checkout_url: order.checkoutUrl,
          total: decimalTotal(order),
          currency_code: order.currency,
          transaction_id: order.transactionId,
        },
      };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
