import type { Language } from "~/lib/i18n";
import { i18nFor, translator } from "~/lib/i18n.server";

/**
 * What made a transaction, as its details page names it: a payment request or a collector payment
 * made for the customer by another part of the platform keeps its source on `extra.source` (`pos`
 * for the point-of-sale counter). A source without words of its own is shown as stored.
 */
export function sourceName(source: string, lang: Language): string {
  const key = `transaction_sources.${source}`;
  return /^[a-z_]{1,40}$/.test(source) && i18nFor(lang).exists(key) ? translator(lang)(key) : source;
}

/** The details row naming what made the transaction (stored as `extra.source`); none when nothing did. */
export function sourceDetails(
  row: { extra: string },
  lang: Language,
): { name: string; label: string; value: string }[] {
  let source: unknown;
  try {
    source = (JSON.parse(row.extra) as Record<string, unknown> | null)?.source;
  } catch {
    return [];
  }
  if (typeof source !== "string" || !source) return [];
  return [{ name: "source", label: translator(lang)("transaction_sources.label"), value: sourceName(source, lang) }];
}
