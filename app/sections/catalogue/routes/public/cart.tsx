import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/catalogue-public.css";
import { redirect, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/cart";
import { useText } from "~/components/pay/use-text";
import { Alert, Card, LinkButton } from "~/components/pay/ui";
import { readFormData } from "~/web/form-data.server";
import { getDbFrom } from "~/web/request-context.server";
import { fitToStock, priceCart, setQuantity } from "../../domain/cart.server";
import { MAX_LINE_QUANTITY } from "../../domain/limits";
import { findOrder } from "../../domain/orders.server";
import { CartLine, LineQuantityForms } from "~/components/customer/cart";
import { PriceLine } from "~/components/customer/price";
import { ShopLayout, Totals } from "../../components/public/shop-layout";
import { cartLinesView, orderView, totalsView } from "./cart-view.server";
import { languageOf, loadVisitor, shopQuery, storeCart, unitHeader } from "./shop-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); every change is a plain POST. */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "سلة التسوق" : "Cart" }, { name: "robots", content: "noindex" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const url = new URL(request.url);
  const visitor = await loadVisitor(db, url, request.headers.get("Cookie"));
  const { shop } = visitor;
  let cart = visitor.cart;
  // The units the visitor's own unpaid order holds are theirs: they are not "bought down" by it.
  let view = await priceCart(db, cart, shop.currency, visitor.held);
  // Never more in the cart than is left: a line another customer bought down holds what is left.
  const fitted = fitToStock(cart, view);
  if (fitted.limited.length && visitor.token) {
    cart = fitted.cart;
    await storeCart(visitor, request, cart);
    view = await priceCart(db, cart, shop.currency, visitor.held);
  }
  const asked = url.searchParams.get("order") ?? visitor.paidOrder;
  const order = asked ? await findOrder(db, shop.merchantId, asked) : undefined;
  const limited = Number(url.searchParams.get("limited"));
  return {
    lang,
    unit: await unitHeader(db, shop.merchantId, lang),
    query: shopQuery(shop),
    cartCount: view.count,
    notice: url.searchParams.get("notice") === "already_in_cart" ? "already_in_cart" : null,
    limited: Number.isInteger(limited) && limited > 0 ? limited : null,
    capped: url.searchParams.get("capped") === "1",
    lowered: fitted.limited,
    lines: cartLinesView(cart, view, shop, lang),
    totals: totalsView(view.quote, shop, lang),
    blocked: Object.keys(view.lineProblems).length > 0,
    order: order ? orderView(order, shop, lang) : null,
    pending: visitor.pendingOrder
      ? { orderNo: visitor.pendingOrder.orderNo, payUrl: `/${lang}/pay/${visitor.pendingOrder.transactionId}` }
      : null,
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const db = getDbFrom(context);
  const visitor = await loadVisitor(db, new URL(request.url), request.headers.get("Cookie"));
  const form = await readFormData(request);
  const here = `/${lang}/catalogue/cart${shopQuery(visitor.shop)}`;
  const intent = String(form.get("intent") ?? "");
  const slug = String(form.get("slug") ?? "").slice(0, 200);
  const text = String(form.get("quantity") ?? "").trim();
  const quantity = intent === "remove" ? 0 : /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if ((intent !== "quantity" && intent !== "remove") || !Number.isInteger(quantity)) return redirect(here, 303);
  const changed = await setQuantity(db, visitor.cart, slug, quantity, visitor.held);
  const headers = await storeCart(visitor, request, changed.cart);
  return redirect(
    changed.limitedTo ? `${here}&limited=${changed.limitedTo}` : changed.capped ? `${here}&capped=1` : here,
    { status: 303, headers },
  );
}

export default function Cart() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  const formAction = `/${page.lang}/catalogue/cart${page.query}`;
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
        {page.order ? <OrderConfirmation order={page.order} /> : null}
        <h1 className="c-title">{t("catalogue_public.cart.title")}</h1>
        {page.notice ? (
          <Alert color="orange" role="status">
            {t("catalogue_public.cart.already_in_cart")}
          </Alert>
        ) : null}
        {page.limited ? (
          <Alert color="orange" role="status">
            {t("catalogue_public.cart.limited", { count: page.limited })}
          </Alert>
        ) : null}
        {page.capped ? (
          <Alert color="orange" role="status">
            {t("catalogue_public.cart.capped", { count: MAX_LINE_QUANTITY })}
          </Alert>
        ) : null}
        {page.pending ? (
          <Alert color="orange" role="status">
            <span className="shop-order-number">
              {t("catalogue_public.cart.pending", { number: page.pending.orderNo })}
            </span>{" "}
            <a className="c-link" href={page.pending.payUrl}>
              {t("catalogue_public.cart.pay_pending")}
            </a>
          </Alert>
        ) : null}
        {page.lines.length === 0 ? (
          <Card>
            <div className="c-stack">
              <p>{t("catalogue_public.cart.empty")}</p>
              <LinkButton href={`/${page.lang}/catalogue/product-list${page.query}`}>
                {t("catalogue_public.cart.to_products")}
              </LinkButton>
            </div>
          </Card>
        ) : (
          <Card>
            {page.lines.map((line) => (
              <CartLine
                key={line.slug}
                id={`line-${line.slug}`}
                label={
                  <a
                    className="c-strong c-link"
                    href={`/${page.lang}/catalogue/product-detail/${encodeURIComponent(line.slug)}${page.query}`}
                  >
                    {line.name ? `${line.quantity} × ${line.name}` : t("catalogue_public.cart.unavailable_line")}
                  </a>
                }
                amount={line.lineTotal}
              >
                {line.unitPrice ? (
                  <span className="c-small c-dimmed">{t("catalogue_public.cart.each", { price: line.unitPrice })}</span>
                ) : null}
                {page.lowered.includes(line.slug) ? (
                  <p className="c-field__error">{t("catalogue_public.cart.limited", { count: line.quantity })}</p>
                ) : line.problem ? (
                  <p className="c-field__error">{line.problem}</p>
                ) : null}
                <LineQuantityForms
                  action={formAction}
                  keyName="slug"
                  keyValue={line.slug}
                  quantity={line.quantity}
                  max={Math.max(1, Math.min(MAX_LINE_QUANTITY, line.max))}
                  changeable={Boolean(line.name)}
                  labels={{
                    quantity: t("catalogue_public.cart.quantity_of", { name: line.name }),
                    update: t("catalogue_public.cart.update"),
                    remove: t("catalogue_public.cart.remove"),
                  }}
                />
              </CartLine>
            ))}
            <Totals totals={page.totals} />
          </Card>
        )}
        {page.lines.length > 0 ? (
          page.blocked ? (
            <Alert color="red">{t("catalogue_public.cart.fix_lines")}</Alert>
          ) : (
            <LinkButton href={`/${page.lang}/catalogue/checkout${page.query}`} fullWidth>
              {t("catalogue_public.cart.checkout")}
            </LinkButton>
          )
        ) : null}
      </div>
    </ShopLayout>
  );
}

function OrderConfirmation({
  order,
}: {
  order: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["order"]>;
}) {
  const t = useText();
  return (
    <Card>
      <div className="c-stack">
        <h2 className="c-subtitle shop-order-number">{t("catalogue_public.order.title", { number: order.orderNo })}</h2>
        <p className="c-strong">{t(`catalogue_public.order.states.${order.status}`)}</p>
        {order.lines.map((line, index) => (
          <PriceLine key={index} label={`${line.quantity} × ${line.name}`} amount={line.lineTotal} />
        ))}
        <Totals totals={order.totals} />
      </div>
    </Card>
  );
}
