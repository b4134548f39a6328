import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/catalogue-public.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/product-detail";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, Card, LinkButton, TextField } from "~/components/pay/ui";
import { readFormData } from "~/web/form-data.server";
import { getDbFrom } from "~/web/request-context.server";
import { addToCart } from "../../domain/cart.server";
import { MAX_LINE_QUANTITY } from "../../domain/limits";
import { findProduct, isAvailable, nameIn, productImageUrl, unitPriceOf } from "../../domain/shop.server";
import { ProductPicture, ShopLayout } from "../../components/public/shop-layout";
import { languageOf, loadVisitor, messageOf, shopMoney, shopQuery, storeCart, unitHeader } from "./shop-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005); Add to cart is a plain POST. */
export const handle = { hydrate: false };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page?.product.name ?? "Product" }];
}

async function requireProduct(request: Request, context: Route.LoaderArgs["context"], slug: string) {
  const db = getDbFrom(context);
  const visitor = await loadVisitor(db, new URL(request.url), request.headers.get("Cookie"));
  const product = await findProduct(db, visitor.shop.merchantId, slug);
  if (!product) throw data(null, { status: 404 });
  return { db, visitor, product };
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = languageOf(params);
  const { db, visitor, product } = await requireProduct(request, context, params.slug);
  const money = shopMoney(visitor.shop, lang);
  const url = new URL(request.url);
  const price = unitPriceOf(product);
  const limited = Number(url.searchParams.get("limited"));
  return {
    lang,
    unit: await unitHeader(db, visitor.shop.merchantId, lang, product.unit_id),
    query: shopQuery(visitor.shop),
    cartCount: visitor.cart.lines.reduce((sum, line) => sum + line.quantity, 0),
    inCart: visitor.cart.lines.find((line) => line.slug === product.slug)?.quantity ?? 0,
    added: url.searchParams.get("added") === "1",
    limited: Number.isInteger(limited) && limited > 0 ? limited : null,
    product: {
      slug: product.slug,
      name: nameIn(product, lang),
      description:
        lang === "ar"
          ? product.description_ar || product.description_en
          : product.description_en || product.description_ar,
      sku: product.sku,
      images: product.images.map(productImageUrl),
      price: money(price),
      original: price < product.price ? money(product.price) : null,
      soldOut: !isAvailable(product),
      left: product.inventory,
    },
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = languageOf(params);
  const { visitor, product } = await requireProduct(request, context, params.slug);
  const form = await readFormData(request);
  const quantityText = String(form.get("quantity") ?? "1").trim();
  const quantity = /^\d{1,4}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) {
    return data(
      {
        errors: { quantity: messageOf({ code: "catalogue_public.errors.line_quantity" }, lang) },
        quantity: quantityText.slice(0, 10),
      },
      { status: 400 },
    );
  }
  const query = shopQuery(visitor.shop);
  const added = addToCart(visitor.cart, product, quantity);
  // Adding a product already in the cart opens the cart (public spec §2), where its quantity changes.
  if (added.kind === "already_in_cart") return redirect(`/${lang}/catalogue/cart${query}&notice=already_in_cart`, 303);
  if (added.kind === "refused")
    return data({ errors: { quantity: messageOf(added.problem, lang) }, quantity: quantityText }, { status: 400 });
  const headers = await storeCart(visitor, request, added.cart);
  const back = `/${lang}/catalogue/product-detail/${encodeURIComponent(product.slug)}${query}&added=1${added.limitedTo ? `&limited=${added.limitedTo}` : ""}`;
  return redirect(back, { status: 303, headers });
}

export default function ProductDetail() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const location = useLocation();
  const { product } = page;
  const errors: Record<string, string | null> = answer?.errors ?? {};
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
        <a className="c-link" href={`/${page.lang}/catalogue/product-list${page.query}`}>
          {t("catalogue_public.detail.back")}
        </a>
        {page.added ? (
          <Alert color="orange" role="status">
            {page.limited
              ? t("catalogue_public.cart.limited", { count: page.limited })
              : t("catalogue_public.detail.added")}{" "}
            <a className="c-link" href={`/${page.lang}/catalogue/cart${page.query}`}>
              {t("catalogue_public.detail.view_cart")}
            </a>
          </Alert>
        ) : null}
        <ProductPicture
          image={product.images[0] ?? null}
          name={product.name}
          className="shop-picture shop-picture--large"
        />
        {product.images.length > 1 ? (
          <div className="shop-grid">
            {product.images.slice(1).map((image) => (
              <img key={image} className="shop-picture" src={image} alt="" loading="lazy" width={160} height={160} />
            ))}
          </div>
        ) : null}
        <h1 className="c-title">{product.name}</h1>
        <p className="shop-price">
          {product.price}
          {product.original ? <del>{product.original}</del> : null}
        </p>
        {product.description ? (
          <p className="c-text" style={{ whiteSpace: "pre-wrap" }}>
            {product.description}
          </p>
        ) : null}
        {product.sku ? (
          <p className="c-small c-dimmed">{t("catalogue_public.detail.sku", { sku: product.sku })}</p>
        ) : null}
        {product.soldOut ? <Alert color="orange">{t("catalogue_public.sold_out")}</Alert> : null}
        {!product.soldOut && product.left !== null ? (
          <p className="shop-left">{t("catalogue_public.left", { count: product.left })}</p>
        ) : null}
        <Card>
          <form
            method="post"
            action={`/${page.lang}/catalogue/product-detail/${encodeURIComponent(product.slug)}${page.query}`}
            className="c-stack"
          >
            {page.inCart ? (
              <p className="c-dimmed">{t("catalogue_public.detail.in_cart", { count: page.inCart })}</p>
            ) : null}
            {page.inCart ? null : (
              <TextField
                name="quantity"
                label={t("catalogue_public.detail.quantity")}
                type="number"
                inputMode="numeric"
                min={1}
                max={Math.min(product.left ?? MAX_LINE_QUANTITY, MAX_LINE_QUANTITY)}
                required
                defaultValue={answer?.quantity ?? "1"}
                error={errors.quantity ?? undefined}
              />
            )}
            {page.inCart ? (
              <LinkButton href={`/${page.lang}/catalogue/cart${page.query}`} fullWidth>
                {t("catalogue_public.detail.view_cart")}
              </LinkButton>
            ) : (
              <Button type="submit" fullWidth disabled={product.soldOut}>
                {product.soldOut ? t("catalogue_public.sold_out") : t("catalogue_public.detail.add_to_cart")}
              </Button>
            )}
          </form>
        </Card>
      </div>
    </ShopLayout>
  );
}
