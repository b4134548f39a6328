export const LANGUAGES = ["en", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "ar";
}

export function directionOf(lang: Language): "ltr" | "rtl" {
  return lang === "ar" ? "rtl" : "ltr";
}

export function otherLanguage(lang: Language): Language {
  return lang === "ar" ? "en" : "ar";
}

/** The same path in another language: /en/user → /ar/user. */
export function switchLanguagePath(pathname: string, search: string, lang: Language): string {
  const rest = pathname.replace(/^\/(en|ar)(?=\/|$)/, "");
  return `/${lang}${rest}${search}`;
}

export function languageOfPath(pathname: string): Language {
  const first = pathname.split("/")[1];
  return isLanguage(first) ? first : DEFAULT_LANGUAGE;
}
