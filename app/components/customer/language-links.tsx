import { useText } from "~/components/pay/use-text";
import { LANGUAGES, switchLanguagePath, type Language } from "~/lib/i18n";

/**
 * The EN / AR links of a customer page: plain links to the same page and query in each language, so
 * they work without JavaScript and whether the page was rendered by the router or without it.
 * `path` is the page's own path and query (`/en/new-menu?merchant=1`).
 */
export function LanguageLinks({ lang, path }: { lang: Language; path: string }) {
  const t = useText();
  const queryAt = path.indexOf("?");
  const [pathname, search] = queryAt === -1 ? [path, ""] : [path.slice(0, queryAt), path.slice(queryAt)];
  return (
    <nav aria-label={t("pay.language")} className="public-header__languages">
      {LANGUAGES.map((code) => (
        <a
          key={code}
          href={switchLanguagePath(pathname, search, code)}
          style={{ fontWeight: code === lang ? 800 : 500 }}
          aria-current={code === lang ? "true" : undefined}
          lang={code}
        >
          {code.toUpperCase()}
        </a>
      ))}
    </nav>
  );
}
