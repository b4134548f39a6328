import type { Route } from "./+types/public-invoice";
import { z } from "zod";
import { offerDiscount } from "~/domain/commerce/offer-codes.server";
import { toDecimalString } from "~/lib/money";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { CheckoutItemSchema, problemsOf } from "../../domain/checkout-schema.server";
import { shopGateways } from "../../domain/checkout.server";
import { checkDiscount, findDiscount, priceItems, zeroTotalProblem } from "../../domain/pricing.server";
import { discountRule, overLimit } from "../../presentation/throttles.server";
import { isAvailable, productsBySlug, storesCarrying, unitPriceOf } from "../../domain/shop.server";
import { nestedProblems, publicApiLanguage, requireShop, slugsOf, tooMany } from "./public-api.server";

/**
 * GET invoice/preqs?product_slugs=a,b: what a checkout of those products needs before it is
 * placed — each product's price and what is left (unknown slugs are named), the stores carrying
 * them all with the store label, the payment methods, the terms and the currency.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method !== "GET") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const shop = await requireShop(db, request);
  const slugs = slugsOf(request);
  const products = await productsBySlug(db, shop.merchantId, slugs);
  const money = (minor: number) => toDecimalString(minor, shop.currency);
  const [stores, gateways] = await Promise.all([
    storesCarrying(
      db,
      shop.merchantId,
      [...products.values()].map((product) => product.id),
    ),
    shopGateways(db, shop, lang),
  ]);
  const settings = shop.settings;
  return apiJson({
    currency: shop.currency,
    products: slugs.map((slug) => {
      const product = products.get(slug);
      return product
        ? {
            slug,
            found: true,
            price: money(product.price),
            discounted_price: product.discounted_price === null ? null : money(product.discounted_price),
            unit_price: money(unitPriceOf(product)),
            inventory: product.inventory,
            is_available: isAvailable(product),
          }
        : {
            slug,
            found: false,
            price: null,
            discounted_price: null,
            unit_price: null,
            inventory: null,
            is_available: false,
          };
    }),
    stores: stores.map((store) => ({
      id: store.id,
      name: lang === "ar" ? store.name_ar : store.name_en,
      name_en: store.name_en,
      name_ar: store.name_ar,
      address_en: store.address_en,
      address_ar: store.address_ar,
      phone: store.phone,
    })),
    label_store:
      (lang === "ar"
        ? settings.label_store_ar || settings.label_store_en
        : settings.label_store_en || settings.label_store_ar) || null,
    pay_choices: gateways.map((gateway) => ({
      gateway: gateway.name,
      gateway_code: gateway.code,
      value: gateway.code,
      logo_url: gateway.logo_url,
      currency_code: shop.currency,
    })),
    terms: (lang === "ar" ? settings.terms_ar || settings.terms_en : settings.terms_en || settings.terms_ar) || null,
  });
}

const DiscountSchema = z.object({
  code: z.string().trim().min(1, "errors.required").max(40, "errors.too_long"),
  items: z.array(CheckoutItemSchema).max(50).optional(),
});

/**
 * POST invoice/discount {"code", "items"}: the discount the code gives on those items as the shop
 * prices them {"code", "discount_type", "amount", "subtotal", "discount", "total"}, or 400 with the
 * reason in the caller's language (an unknown code and an inactive one alike; a code taking the
 * whole total is refused, as checkout refuses it). A use is taken only when an order is placed.
 * Throttled per address with every discount code tried, so codes cannot be guessed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const body = await readBody(request);
  const shop = await requireShop(db, request, body);
  const parsed = DiscountSchema.safeParse(body);
  if (!parsed.success) return apiJson(nestedProblems(problemsOf(parsed.error.issues), lang), 400);
  if (await overLimit(db, [discountRule(context.get(clientAddressContext))]))
    return tooMany(request, "catalogue_public.errors.discount_throttled");
  const { quote, problems } = await priceItems(db, shop, parsed.data.items ?? [], null);
  if (Object.keys(problems).length) return apiJson(nestedProblems(problems, lang), 400);
  const discount = await findDiscount(db, shop.merchantId, parsed.data.code);
  const checked = await checkDiscount(db, discount, quote.subtotal, shop.currency);
  const money = (minor: number) => toDecimalString(minor, shop.currency);
  if (!checked.ok) {
    return apiJson(nestedProblems({ code: checked.problem }, lang), 400);
  }
  const off = offerDiscount(discount!, quote.subtotal);
  const whole = zeroTotalProblem({ lines: quote.lines, discount: off, total: quote.subtotal - off });
  if (whole.discount_code) return apiJson(nestedProblems({ code: whole.discount_code }, lang), 400);
  return apiJson({
    code: discount!.code,
    discount_type: discount!.discount_type,
    amount: discount!.discount_type === "percentage" ? (discount!.amount / 100).toFixed(2) : money(discount!.amount),
    subtotal: money(quote.subtotal),
    discount: money(off),
    total: money(quote.subtotal - off),
    currency_code: shop.currency,
  });
}
