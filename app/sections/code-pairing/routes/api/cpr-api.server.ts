import type { FieldErrors } from "~/domain/identity/passwords.server";
import { isLanguage, type Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { apiLanguage } from "~/web/api.server";

/** The caller's language: `?lang=` when given, else Accept-Language. */
export function cprApiLanguage(request: Request): Language {
  const asked = new URL(request.url).searchParams.get("lang");
  return isLanguage(asked) ? asked : apiLanguage(request);
}

/** Field errors in DRF's shape, in `lang`. */
export function apiFieldErrors(errors: FieldErrors, params: TextParams | undefined, lang: Language) {
  return Object.fromEntries(
    Object.entries(errors).map(([field, codes]) => [field, codes.map((code) => describe(code, params, lang))]),
  );
}

/** The site a call names: its `referer` field, else the browser's own Referer header. */
export function refererOf(request: Request, body: Record<string, unknown>) {
  const named = typeof body.referer === "string" ? body.referer.slice(0, 500) : "";
  return named || request.headers.get("Referer") || "";
}
