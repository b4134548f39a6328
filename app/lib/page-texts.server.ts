import type { Language } from "./i18n";
import { i18nFor } from "./i18n.server";

/**
 * The words of namespaces only some pages need (PAGE_NAMESPACES), for a page's loader to send with
 * the page: the browser's catalogue leaves them out (decision 0020).
 */
export function pageTexts(lang: Language, namespaces: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    namespaces.map((namespace) => [namespace, i18nFor(lang).getResource(lang, "common", namespace) ?? {}]),
  );
}
