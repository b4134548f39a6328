import type { ReactNode } from "react";
import { useText } from "~/components/pay/use-text";
import { PublicHeader, type UnitHeader } from "~/components/pay/public-header";
import type { Language } from "~/lib/i18n";

/** A customer page of the food menu: the merchant unit's header (with the language switch) above the page's own content. */
export function FoodLayout({
  unit,
  lang,
  path,
  narrow,
  children,
}: {
  unit: UnitHeader | null;
  lang: Language;
  path: string;
  narrow?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="pay-page food-page">
      {unit ? <PublicHeader unit={unit} lang={lang} path={path} /> : <LanguageLinks lang={lang} path={path} />}
      <main className={narrow ? "c-main c-main--narrow" : "c-main"}>{children}</main>
    </div>
  );
}

function LanguageLinks({ lang, path }: { lang: Language; path: string }) {
  const rest = path.replace(/^\/(en|ar)(?=\/|$|\?)/, "");
  const t = useText();
  return (
    <header className="public-header">
      <div className="public-header__bar">
        <div className="public-header__brand" />
        <nav className="public-header__languages" aria-label={t("pay.language")}>
          {(["en", "ar"] as const).map((code) => (
            <a
              key={code}
              href={`/${code}${rest}`}
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

export type TotalsView = {
  subtotal: string;
  discount: string | null;
  deliveryCharge: string | null;
  serviceCharge: string | null;
  total: string;
};

/** The cart's or order's amounts, already formatted. */
export function Totals({ totals }: { totals: TotalsView }) {
  const t = useText();
  return (
    <dl className="food-totals">
      <dt>{t("food_public.totals.subtotal")}</dt>
      <dd>{totals.subtotal}</dd>
      {totals.discount ? (
        <>
          <dt>{t("food_public.totals.discount")}</dt>
          <dd>−{totals.discount}</dd>
        </>
      ) : null}
      {totals.deliveryCharge ? (
        <>
          <dt>{t("food_public.totals.delivery_charge")}</dt>
          <dd>{totals.deliveryCharge}</dd>
        </>
      ) : null}
      {totals.serviceCharge ? (
        <>
          <dt>{t("food_public.totals.service_charge")}</dt>
          <dd>{totals.serviceCharge}</dd>
        </>
      ) : null}
      <dt className="food-totals__total">{t("food_public.totals.total")}</dt>
      <dd className="food-totals__total">{totals.total}</dd>
    </dl>
  );
}
