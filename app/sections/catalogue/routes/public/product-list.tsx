import "~/styles/customer.css";
import "~/styles/pay.css";
import "../../components/public/catalogue-public.css";
import { useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/product-list";
import { useText } from "~/components/pay/use-text";
import { Alert, Button, TextField } from "~/components/pay/ui";
import { getDbFrom } from "~/web/request-context.server";
import { ProductPicture, ShopLayout } from "../../components/public/shop-layout";
import { listPageView, type ListPageData } from "./list-view.server";
import { languageOf } from "./shop-page.server";

/** Served as plain HTML: no React on the client (docs/decisions/0005). The search is a GET form. */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "المنتجات" : "Products" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  return listPageView(getDbFrom(context), new URL(request.url), request.headers.get("Cookie"), languageOf(params));
}

export default function ProductList() {
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return <ProductListPage page={page} path={location.pathname + location.search} />;
}

/** The product list itself, from its view's data: rendered by the route and by its direct handler. */
export function ProductListPage({ page, path }: { page: ListPageData; path: string }) {
  const t = useText();
  return (
    <ShopLayout unit={page.unit} lang={page.lang} path={path} query={page.query} cartCount={page.cartCount}>
      <div className="c-stack">
        {page.banner ? <Banner banner={page.banner} /> : null}
        <h1 className="c-title">{t("catalogue_public.list.title")}</h1>
        <form method="get" action={`/${page.lang}/catalogue/product-list`} className="shop-search" role="search">
          <input type="hidden" name="merchant" value={page.merchantId} />
          <TextField
            name="q"
            type="search"
            label={t("catalogue_public.list.search")}
            maxLength={100}
            defaultValue={page.search}
            dir="auto"
          />
          <Button type="submit" variant="default">
            {t("catalogue_public.list.search_button")}
          </Button>
        </form>
        {page.search ? (
          <p className="c-dimmed">{t("catalogue_public.list.results", { count: page.count, search: page.search })}</p>
        ) : null}
        {page.products.length === 0 ? (
          <Alert color="orange" role="status">
            {page.search ? t("catalogue_public.list.no_results") : t("catalogue_public.list.empty")}
          </Alert>
        ) : (
          <div className="shop-grid">
            {page.products.map((product) => (
              <a
                key={product.slug}
                className="c-card shop-card"
                href={`/${page.lang}/catalogue/product-detail/${encodeURIComponent(product.slug)}${page.query}`}
              >
                <ProductPicture image={product.image} name={product.name} className="shop-picture" />
                <span className="shop-name">{product.name}</span>
                <span className="shop-price">
                  {product.price}
                  {product.original ? <del>{product.original}</del> : null}
                </span>
                {product.soldOut ? <span className="shop-sold-out">{t("catalogue_public.sold_out")}</span> : null}
                {product.left ? (
                  <span className="shop-left">{t("catalogue_public.left", { count: product.left })}</span>
                ) : null}
              </a>
            ))}
          </div>
        )}
        {page.pages > 1 ? (
          <nav className="shop-pages" aria-label={t("catalogue_public.list.pages")}>
            {page.previous ? (
              <a className="c-button c-button--default" href={page.previous} rel="prev">
                {t("catalogue_public.list.previous")}
              </a>
            ) : (
              <span />
            )}
            <span className="c-dimmed">
              {t("catalogue_public.list.page_of", { page: page.page, pages: page.pages })}
            </span>
            {page.next ? (
              <a className="c-button c-button--default" href={page.next} rel="next">
                {t("catalogue_public.list.next")}
              </a>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </div>
    </ShopLayout>
  );
}

function Banner({ banner }: { banner: NonNullable<ListPageData["banner"]> }) {
  const content = (
    <>
      {banner.image ? <img src={banner.image} alt="" /> : null}
      {banner.title || banner.subtitle ? (
        <span className="shop-banner__text">
          {banner.title ? <span className="shop-banner__title">{banner.title}</span> : null}
          {banner.subtitle ? <span className="shop-banner__subtitle">{banner.subtitle}</span> : null}
        </span>
      ) : null}
    </>
  );
  return banner.link ? (
    <a className="shop-banner" href={banner.link} target="_blank" rel="noopener noreferrer">
      {content}
    </a>
  ) : (
    <div className="shop-banner">{content}</div>
  );
}
