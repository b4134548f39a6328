import i18next, { type i18n, type TFunction } from "i18next";
import ar from "../../locales/ar/common.json";
import en from "../../locales/en/common.json";
import { LANGUAGES, type Language } from "./i18n";

export type { Language };

const resources = { en: { common: en }, ar: { common: ar } };

/**
 * One initialised i18next instance per language, made once per process. Rendering a page
 * picks the instance of the URL's language instead of creating one per request.
 */
const instances = Object.fromEntries(
  LANGUAGES.map((lang) => {
    const instance = i18next.createInstance();
    void instance.init({
      lng: lang,
      fallbackLng: false,
      resources,
      ns: ["common"],
      defaultNS: "common",
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    return [lang, instance];
  }),
) as Record<Language, i18n>;

export function i18nFor(lang: Language): i18n {
  return instances[lang];
}

export function translator(lang: Language): TFunction {
  return instances[lang].t;
}

/** The language an API client asks for with Accept-Language; English otherwise. */
export function languageFromHeader(header: string | null): Language {
  return header && /^\s*ar\b/i.test(header) ? "ar" : "en";
}
