import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { findOpenSite, pairLabel, siteHost, type Site } from "../../domain/sites.server";

export function languageOf(params: { lang?: string }): Language {
  return isLanguage(params.lang) ? params.lang : "en";
}

/**
 * The merchant's site the customer came from: the `site` the page carries (the merchant's link may
 * name it, `/en/cpr?site=shop.example.com`, and the form keeps it), else the Referer's host when it
 * is not this platform's own. A site whose merchant no longer takes codes (paused, the section
 * turned off) is no site.
 */
export async function siteOfRequest(db: DB, request: Request, named: string | null): Promise<Site | null> {
  if (named) return findOpenSite(db, siteHost(named));
  const referer = request.headers.get("Referer");
  if (!referer) return null;
  const host = siteHost(referer);
  if (!host || host === siteHost(request.url)) return null;
  return findOpenSite(db, host);
}

/** The page as it is written out: the merchant's header, the paired field's label, in the page's language. */
export async function cprPageView(db: DB, site: Site | null, lang: Language) {
  const t = translator(lang);
  if (!site) return { lang, found: false as const, title: t("cpr_public.title") };
  return {
    lang,
    found: true as const,
    title: t("cpr_public.title"),
    site: site.host,
    unit: await loadUnitHeader(db, { merchant_id: site.merchantId, unit_id: null }, lang),
    pairLabel: (await pairLabel(db, site, lang)) ?? t("cpr_public.default_label"),
  };
}
export type CprPageView = Awaited<ReturnType<typeof cprPageView>>;

/** Field errors as a page shows them: the first message of each field, in the page's language. */
export function fieldMessages(
  errors: FieldErrors,
  params: TextParams | undefined,
  lang: Language,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, [first]]) => [field, describe(first ?? "errors.required", params, lang)]),
  );
}
