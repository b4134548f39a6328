import type { Route } from "./+types/validate";
import { payUrlOf } from "~/domain/payments/lifecycle.server";
import { translator } from "~/lib/i18n.server";
import { apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { requestMaker } from "~/sections/services.server";
import { pairCode } from "../../domain/pairing.server";
import { findOpenSite, siteHost } from "../../domain/sites.server";
import { apiFieldErrors, cprApiLanguage, refererOf } from "./cpr-api.server";

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}

/**
 * POST validate {"code", "pair", "referer"?}: 200 {"redirect_url", "transaction_id"} — the pay page
 * of the payment request this use of the code made (or, while it can still be paid, the one its
 * latest use made); 400 {"code": […], "pair": […]} (a wrong code
 * and a wrong paired value get the same answer), 400 {"referer": […]} for a site no merchant has,
 * 429 {"detail"} after too many failed tries. Anonymous; the same limits as the /cpr page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = cprApiLanguage(request);
  const body = await readBody(request);
  const referer = refererOf(request, body);
  const site = await findOpenSite(db, siteHost(referer));
  if (!site)
    return apiJson(
      apiFieldErrors({ referer: [referer ? "cpr_public.unknown_site" : "errors.required"] }, undefined, lang),
      400,
    );
  const text = (value: unknown, max: number) =>
    typeof value === "string" ? value.slice(0, max) : typeof value === "number" ? String(value) : "";
  const outcome = await pairCode(db, {
    site,
    code: text(body.code, 60),
    pair: text(body.pair, 80),
    ip: context.get(clientAddressContext),
    lang,
    makeRequest: requestMaker(),
  });
  if (outcome.ok)
    return apiJson({
      redirect_url: payUrlOf(linkBaseUrl(), lang, outcome.transactionId),
      transaction_id: outcome.transactionId,
    });
  if (outcome.kind === "closed")
    return apiJson(apiFieldErrors({ referer: ["cpr_public.unknown_site"] }, undefined, lang), 400);
  if (outcome.kind === "throttled")
    return apiJson({ detail: translator(lang)("cpr_public.errors.throttled", { minutes: outcome.minutes }) }, 429, {
      "Retry-After": String(outcome.minutes * 60),
    });
  return apiJson(apiFieldErrors(outcome.errors, undefined, lang), 400);
}
