import type { ReactNode } from "react";
import { useText } from "~/components/pay/use-text";
import { PublicHeader, type UnitHeader } from "~/components/pay/public-header";
import { switchLanguagePath, type Language } from "~/lib/i18n";

/** A page of the shop: the merchant unit's header (with the language switch), the shop's bar with the cart, then the page. */
export function ShopLayout({
  unit,
  lang,
  path,
  query,
  cartCount,
  narrow,
  children,
}: {
  unit: UnitHeader | null;
  lang: Language;
  path: string;
  query: string;
  cartCount: number;
  narrow?: boolean;
  children: ReactNode;
}) {
  const t = useText();
  return (
    <div className="pay-page shop-page">
      {unit ? <PublicHeader unit={unit} lang={lang} path={path} /> : <LanguageLinks lang={lang} path={path} />}
      <nav className="shop-bar" aria-label={t("catalogue_public.nav.label")}>
        <a className="shop-bar__link" href={`/${lang}/catalogue/product-list${query}`}>
          {t("catalogue_public.nav.products")}
        </a>
        <a className="shop-bar__link shop-bar__cart" href={`/${lang}/catalogue/cart${query}`}>
          {t("catalogue_public.nav.cart", { count: cartCount })}
        </a>
      </nav>
      <main className={narrow ? "c-main c-main--narrow" : "c-main"}>{children}</main>
    </div>
  );
}

function LanguageLinks({ lang, path }: { lang: Language; path: string }) {
  const t = useText();
  const queryAt = path.indexOf("?");
  const [pathname, search] = queryAt === -1 ? [path, ""] : [path.slice(0, queryAt), path.slice(queryAt)];
  return (
    <header className="public-header">
      <div className="public-header__bar">
        <div className="public-header__brand" />
        <nav className="public-header__languages" aria-label={t("pay.language")}>
          {(["en", "ar"] as const).map((code) => (
            <a
              key={code}
              href={switchLanguagePath(pathname, search, code)}
              lang={code}
              aria-current={code === lang ? "true" : undefined}
              style={{ fontWeight: code === lang ? 800 : 500 }}
            >
              {code === "en" ? "EN" : "AR"}
            </a>
          ))}
        </nav>
      </div>
    </header>
  );
}

export type TotalsView = { subtotal: string; discount: string | null; total: string };

/** The cart's or order's amounts, already formatted. */
export function Totals({ totals }: { totals: TotalsView }) {
  const t = useText();
  return (
    <dl className="shop-totals">
      <dt>{t("catalogue_public.totals.subtotal")}</dt>
      <dd>{totals.subtotal}</dd>
      {totals.discount ? (
        <>
          <dt>{t("catalogue_public.totals.discount")}</dt>
          <dd>−{totals.discount}</dd>
        </>
      ) : null}
      <dt className="shop-totals__total">{t("catalogue_public.totals.total")}</dt>
      <dd className="shop-totals__total">{totals.total}</dd>
    </dl>
  );
}

/** A product's picture, or its initial on the shop's colour when it has none (no layout shift either way). */
export function ProductPicture({ image, name, className }: { image: string | null; name: string; className: string }) {
  return image ? (
    <img className={className} src={image} alt="" loading="lazy" width={320} height={320} />
  ) : (
    <span className={`${className} shop-picture--empty`} aria-hidden>
      {name.trim().charAt(0)}
    </span>
  );
}
