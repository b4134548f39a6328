import { useTranslation } from "react-i18next";
import type { Language } from "./i18n";

/**
 * Adds the words a page's loader sent (page-texts.server.ts) to the browser's catalogue before the
 * page renders, so the browser writes what the server wrote. `probe` is a key among them: once it
 * is known, the words are there.
 */
export function usePageTexts(lang: Language, texts: Record<string, unknown>, probe: string) {
  const { i18n } = useTranslation();
  if (typeof document !== "undefined" && !i18n.exists(probe)) i18n.addResourceBundle(lang, "common", texts, true, true);
}
