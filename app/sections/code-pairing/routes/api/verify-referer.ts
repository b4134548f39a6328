import type { Route } from "./+types/verify-referer";
import { translator } from "~/lib/i18n.server";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findOpenSite, pairLabel, siteHost } from "../../domain/sites.server";
import { apiFieldErrors, cprApiLanguage, refererOf } from "./cpr-api.server";

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}

/**
 * POST verify-referer {"referer"}: 200 {"field_label", "site"} — the paired field's label on that
 * merchant's site, in the caller's language (Accept-Language or ?lang=); 400 without a referer (nor
 * a Referer header), 404 for a site no merchant has. Anonymous.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = cprApiLanguage(request);
  const body = await readBody(request);
  const referer = refererOf(request, body);
  if (!referer) return apiJson(apiFieldErrors({ referer: ["errors.required"] }, undefined, lang), 400);
  const host = siteHost(referer);
  if (!host) return apiJson(apiFieldErrors({ referer: ["cpr_public.errors.referer"] }, undefined, lang), 400);
  const site = await findOpenSite(db, host);
  if (!site) return apiJson({ detail: translator(lang)("cpr_public.unknown_site") }, 404);
  return apiJson({
    field_label: (await pairLabel(db, site, lang)) ?? translator(lang)("cpr_public.default_label"),
    site: site.host,
  });
}
