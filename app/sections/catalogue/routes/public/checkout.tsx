import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/catalogue-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/checkout";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, TextField } from "~/components/pay/ui";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { priceCart } from "../../domain/cart.server";
import { CheckoutSchema, problemsOf } from "../../domain/checkout-schema.server";
import { placeOrder, shopGateways } from "../../domain/checkout.server";
import { zeroTotalProblem } from "../../domain/pricing.server";
import { checkoutRule, discountRule, overLimit } from "../../presentation/throttles.server";
import { nameIn, storesCarrying } from "../../domain/shop.server";
import { CartLine, OfferCodeField, PaymentChoices } from "~/components/customer/cart";
import { ShopLayout, Totals } from "../../components/public/shop-layout";
import { cartLinesView, totalsView } from "./cart-view.server";
import { languageOf, loadVisitor, messageOf, messagesOf, shopQuery, storeCart, unitHeader } from "./shop-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); the discount and the order itself are plain POSTs. */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إتمام الشراء" : "Checkout" }, { name: "robots", content: "noindex" }];
}

const FIELDS = [
  "customer_name",
  "customer_email",
  "customer_phone",
  "discount_code",
  "gateway_code",
  "store",
  "accept_terms",
] as const;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const { shop, cart, held } = await loadVisitor(db, new URL(request.url), request.headers.get("Cookie"));
  // The units the visitor's own unpaid order holds are theirs: checking out again ends that order first.
  const view = await priceCart(db, cart, shop.currency, held);
  const zero = zeroTotalProblem(view.quote);
  const [unit, gateways, stores] = await Promise.all([
    unitHeader(db, shop.merchantId, lang),
    shopGateways(db, shop, lang),
    storesCarrying(
      db,
      shop.merchantId,
      view.quote.lines.map((line) => line.product.id),
    ),
  ]);
  const settings = shop.settings;
  const terms = lang === "ar" ? settings.terms_ar || settings.terms_en : settings.terms_en || settings.terms_ar;
  return {
    lang,
    unit,
    query: shopQuery(shop),
    cartCount: view.count,
    lines: cartLinesView(cart, view, shop, lang),
    totals: totalsView(view.quote, shop, lang),
    discountCode: cart.discount_code,
    discountError: messageOf(view.discountProblem ?? zero.discount_code, lang),
    totalError: messageOf(zero.items, lang),
    blocked: Object.keys(view.lineProblems).length > 0 || Object.keys(zero).length > 0,
    gateways,
    storeLabel: (lang === "ar" ? settings.label_store_ar : settings.label_store_en) || null,
    stores: stores.map((store) => ({
      id: store.id,
      name: nameIn(store, lang),
      address: lang === "ar" ? store.address_ar || store.address_en : store.address_en || store.address_ar,
    })),
    terms: terms.trim() || null,
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const visitor = await loadVisitor(db, new URL(request.url), request.headers.get("Cookie"));
  const form = await readFormData(request);
  const values: Record<string, string> = {};
  for (const field of FIELDS) values[field] = String(form.get(field) ?? "").slice(0, 300);
  const intent = String(form.get("intent") ?? "place");
  const address = context.get(clientAddressContext);
  const answer = (
    status: number,
    fields: Record<string, string | null> = {},
    lines: Record<string, string> = {},
    headers?: HeadersInit,
  ) => data({ values, fields, lines }, { status, headers });
  const code = values.discount_code.trim().slice(0, 40);
  if (intent === "discount") {
    // Every code tried counts against the address, so codes cannot be guessed.
    if (code && (await overLimit(db, [discountRule(address)])))
      return answer(429, { discount_code: messageOf({ code: "catalogue_public.errors.discount_throttled" }, lang) });
    const view = await priceCart(
      db,
      { ...visitor.cart, discount_code: code || null },
      visitor.shop.currency,
      visitor.held,
    );
    const problem = code ? (view.discountProblem ?? zeroTotalProblem(view.quote).discount_code) : null;
    if (problem) return answer(400, { discount_code: messageOf(problem, lang) });
    // Answered in place (not redirected), so that what the customer typed stays in the form without JavaScript.
    const headers = await storeCart(visitor, request, { ...visitor.cart, discount_code: code || null });
    return answer(200, {}, {}, headers);
  }
  if (intent !== "place") return answer(400);
  // The page's checkouts share the API's bucket: each holds units for 15 minutes.
  if (await overLimit(db, [checkoutRule(address)]))
    return answer(429, { non_field_errors: messageOf({ code: "catalogue_public.errors.throttled" }, lang) });
  if (code && (await overLimit(db, [discountRule(address)])))
    return answer(429, { discount_code: messageOf({ code: "catalogue_public.errors.discount_throttled" }, lang) });
  const parsed = CheckoutSchema.safeParse({ ...values, items: visitor.cart.lines });
  if (!parsed.success)
    return data(
      {
        values,
        fields: messagesOf(problemsOf(parsed.error.issues), lang) as Record<string, string | null>,
        lines: {} as Record<string, string>,
      },
      { status: 400 },
    );
  const placed = await placeOrder(db, {
    merchantId: visitor.shop.merchantId,
    request: parsed.data,
    lang,
    baseUrl: linkBaseUrl(),
    requireTerms: true,
    cartToken: visitor.token,
    previousOrder: visitor.cart.order,
    clientAddress: address,
  });
  if (!placed.ok) {
    const messages = messagesOf(placed.problems, lang);
    const lines: Record<string, string> = {};
    const fields: Record<string, string | null> = {};
    for (const [key, message] of Object.entries(messages)) {
      const line = /^items\.(\d+)\./.exec(key);
      if (line) lines[visitor.cart.lines[Number(line[1])]?.slug ?? ""] = message;
      else fields[key] = message;
    }
    return data({ values, fields, lines }, { status: 400 });
  }
  // The cart keeps its lines until the payment completes (the hook empties it); it remembers the order.
  const headers = await storeCart(visitor, request, {
    ...visitor.cart,
    discount_code: parsed.data.discount_code || null,
    order: placed.order.number,
  });
  return redirect(`/${lang}/pay/${placed.order.transactionId}`, { status: 303, headers });
}

export default function Checkout() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const formAction = `/${page.lang}/catalogue/checkout${page.query}`;
  const fields: Record<string, string | null> = answer?.fields ?? {};
  const lineErrors: Record<string, string> = answer?.lines ?? {};
  const value = (name: string, fallback = "") => answer?.values?.[name] ?? fallback;
  const general = [...new Set([fields.items, fields.non_field_errors, page.totalError].filter(Boolean))];
  const empty = page.lines.length === 0;
  return (
    <ShopLayout
      unit={page.unit}
      lang={page.lang}
      path={location.pathname + location.search}
      query={page.query}
      cartCount={page.cartCount}
      narrow
    >
      <div className="c-stack">
        <a className="c-link" href={`/${page.lang}/catalogue/cart${page.query}`}>
          {t("catalogue_public.checkout.back")}
        </a>
        <h1 className="c-title">{t("catalogue_public.checkout.title")}</h1>
        {general.map((message) => (
          <Alert key={message} color="red">
            {message}
          </Alert>
        ))}
        {empty ? (
          <Alert color="orange" role="status">
            {t("catalogue_public.cart.empty")}
          </Alert>
        ) : (
          <Card>
            <h2 className="c-subtitle">{t("catalogue_public.checkout.your_order")}</h2>
            {page.lines.map((line) => (
              <CartLine
                key={line.slug}
                label={
                  <span className="c-strong">
                    {line.name ? `${line.quantity} × ${line.name}` : t("catalogue_public.cart.unavailable_line")}
                  </span>
                }
                amount={line.lineTotal}
              >
                {lineErrors[line.slug] || line.problem ? (
                  <p className="c-field__error">{lineErrors[line.slug] ?? line.problem}</p>
                ) : null}
              </CartLine>
            ))}
            <Totals totals={page.totals} />
          </Card>
        )}
        <form method="post" action={formAction} className="c-stack" noValidate={false}>
          <Card>
            <OfferCodeField
              name="discount_code"
              intent="discount"
              labels={{
                field: t("catalogue_public.checkout.discount_code"),
                apply: t("catalogue_public.checkout.apply"),
              }}
              defaultValue={value("discount_code", page.discountCode ?? "")}
              error={fields.discount_code ?? page.discountError}
            />
          </Card>
          <Card>
            <div className="c-stack">
              <h2 className="c-subtitle">{t("catalogue_public.checkout.your_details")}</h2>
              <TextField
                name="customer_name"
                label={t("catalogue_public.checkout.name")}
                autoComplete="name"
                maxLength={100}
                required
                defaultValue={value("customer_name")}
                error={fields.customer_name ?? undefined}
                dir="auto"
              />
              <TextField
                name="customer_email"
                label={t("catalogue_public.checkout.email")}
                type="email"
                inputMode="email"
                autoComplete="email"
                maxLength={254}
                required
                defaultValue={value("customer_email")}
                error={fields.customer_email ?? undefined}
                dir="ltr"
              />
              <TextField
                name="customer_phone"
                label={t("catalogue_public.checkout.phone")}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                maxLength={30}
                defaultValue={value("customer_phone")}
                error={fields.customer_phone ?? undefined}
                dir="ltr"
              />
            </div>
          </Card>
          {page.stores.length ? (
            <Card>
              <fieldset className="c-choices">
                <legend>{page.storeLabel ?? t("catalogue_public.checkout.store")}</legend>
                {page.stores.map((store, index) => (
                  <label key={store.id} className="c-choice">
                    <input
                      type="radio"
                      name="store"
                      value={store.id}
                      defaultChecked={answer?.values ? answer.values.store === String(store.id) : index === 0}
                    />
                    <span>
                      <span className="c-strong">{store.name}</span>
                      {store.address ? <span className="c-small c-dimmed"> · {store.address}</span> : null}
                    </span>
                  </label>
                ))}
                {fields.store ? <p className="c-field__error">{fields.store}</p> : null}
              </fieldset>
            </Card>
          ) : null}
          <Card>
            <div className="c-stack">
              <PaymentChoices
                legend={t("catalogue_public.checkout.payment_method")}
                gateways={page.gateways.map((gateway) => ({
                  code: gateway.code,
                  name: gateway.name,
                  logoUrl: gateway.logo_url,
                }))}
                chosen={answer?.values?.gateway_code}
                error={fields.gateway_code}
                none={t("catalogue_public.checkout.no_gateways")}
              />
              {page.terms ? (
                <div className="c-stack c-stack--tight">
                  <p className="shop-terms">{page.terms}</p>
                  <label className="c-choice">
                    <input
                      type="checkbox"
                      name="accept_terms"
                      value="on"
                      required
                      defaultChecked={answer?.values?.accept_terms === "on"}
                      aria-describedby={fields.accept_terms ? "accept-terms-error" : undefined}
                    />
                    {t("catalogue_public.checkout.accept_terms")}
                  </label>
                  {fields.accept_terms ? (
                    <p className="c-field__error" id="accept-terms-error">
                      {fields.accept_terms}
                    </p>
                  ) : null}
                </div>
              ) : null}
              <Button
                type="submit"
                name="intent"
                value="place"
                fullWidth
                size="lg"
                disabled={empty || page.blocked || page.gateways.length === 0}
              >
                {t("catalogue_public.checkout.pay", { total: page.totals.total })}
              </Button>
            </div>
          </Card>
        </form>
      </div>
    </ShopLayout>
  );
}
