import { data } from "react-router";
import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { isLanguage, type Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { findPublishedEvent, type PublicEvent } from "../../domain/public-events.server";

/** The page's language from its path. */
export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}

/** A published event and its merchant unit's header, or the 404 page. */
export async function requirePublishedEvent(
  db: DB,
  slug: string | null | undefined,
  lang: Language,
): Promise<{ event: PublicEvent; unit: Awaited<ReturnType<typeof loadUnitHeader>> }> {
  const event = slug ? await findPublishedEvent(db, slug) : undefined;
  if (!event) throw data(null, { status: 404 });
  return { event, unit: await loadUnitHeader(db, event, lang) };
}

/** Field errors as the page shows them: the first message of each field, in the page's language. */
export function fieldMessages(
  errors: FieldErrors,
  params: TextParams | undefined,
  lang: Language,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, [first]]) => [field, describe(first ?? "errors.required", params, lang)]),
  );
}

/** Field errors in DRF's shape, each message in the caller's language. */
export function apiFieldErrors(
  errors: FieldErrors,
  params: TextParams | undefined,
  lang: Language,
): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => describe(key, params, lang))]),
  );
}
