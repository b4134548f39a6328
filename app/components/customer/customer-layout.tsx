import type { ReactNode } from "react";
import type { Language } from "~/lib/i18n";
import { BareHeader, PublicHeader, type UnitHeader } from "./public-header";

/**
 * A customer page of a section (the menu, the shop, the events): the merchant unit's header with the
 * language links (the links alone when no merchant is known), an optional bar of the section's own,
 * then the page. `path` is the page's own path and query.
 */
export function CustomerLayout({
  unit,
  lang,
  path,
  bar,
  narrow,
  children,
}: {
  unit: UnitHeader | null;
  lang: Language;
  path: string;
  bar?: ReactNode;
  narrow?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="pay-page">
      {unit ? <PublicHeader unit={unit} lang={lang} path={path} /> : <BareHeader lang={lang} path={path} />}
      {bar}
      <main className={narrow ? "c-main c-main--narrow" : "c-main"}>{children}</main>
    </div>
  );
}
