import { useText } from "~/components/pay/use-text";
import type { ReactNode } from "react";
import { PublicHeader, type UnitHeader } from "~/components/pay/public-header";
import type { Language } from "~/lib/i18n";

/** A customer page of the events: the merchant unit's header (with the language switch) above the page's own content. */
export function EventsLayout({
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
    <div className="pay-page events-page">
      {unit ? <PublicHeader unit={unit} lang={lang} path={path} /> : <LanguageLinks lang={lang} path={path} />}
      <main className={narrow ? "c-main c-main--narrow" : "c-main"}>{children}</main>
    </div>
  );
}

/** The EN/AR switch when no merchant's header is shown (the list of several merchants' events). */
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
