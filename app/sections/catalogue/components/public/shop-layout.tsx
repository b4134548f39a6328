import type { ReactNode } from "react";
import { useText } from "~/components/pay/use-text";
import { CustomerLayout } from "~/components/customer/customer-layout";
import type { UnitHeader } from "~/components/customer/public-header";
import { Totals as KitTotals } from "~/components/customer/price";
import type { Language } from "~/lib/i18n";

/** A page of the shop: the merchant unit's header (with the language links), the shop's bar with the cart, then the page. */
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
  const bar = (
    <nav className="shop-bar" aria-label={t("catalogue_public.nav.label")}>
      <a className="shop-bar__link" href={`/${lang}/catalogue/product-list${query}`}>
        {t("catalogue_public.nav.products")}
      </a>
      <a className="shop-bar__link shop-bar__cart" href={`/${lang}/catalogue/cart${query}`}>
        {t("catalogue_public.nav.cart", { count: cartCount })}
      </a>
    </nav>
  );
  return (
    <CustomerLayout unit={unit} lang={lang} path={path} bar={bar} narrow={narrow}>
      {children}
    </CustomerLayout>
  );
}

export type TotalsView = { subtotal: string; discount: string | null; total: string };

/** The cart's or order's amounts, already formatted. */
export function Totals({ totals }: { totals: TotalsView }) {
  const t = useText();
  return (
    <KitTotals
      name="shop-totals"
      rows={[
        { label: t("catalogue_public.totals.subtotal"), amount: totals.subtotal },
        ...(totals.discount
          ? [{ label: t("catalogue_public.totals.discount"), amount: totals.discount, discount: true }]
          : []),
        { label: t("catalogue_public.totals.total"), amount: totals.total, total: true },
      ]}
    />
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
