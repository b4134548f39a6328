import type { FieldErrors } from "~/domain/identity/passwords.server";
import { isLanguage, type Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";
import { apiLanguage } from "~/web/api.server";

/** The caller's language: `?lang=` when given, else Accept-Language. */
export function collectApiLanguage(request: Request): Language {
  const asked = new URL(request.url).searchParams.get("lang");
  return isLanguage(asked) ? asked : apiLanguage(request);
}

/** Field errors in DRF's shape, in `lang`: a free-text answer's under `extra` ({"extra": {"f1a2": ["…"]}}). */
export function apiFieldErrors(errors: FieldErrors, params: TextParams | undefined, lang: Language) {
  const body: Record<string, unknown> = {};
  for (const [key, codes] of Object.entries(errors)) {
    const messages = codes.map((code) => describe(code, params, lang));
    const nested = /^extra\.(.+)$/.exec(key);
    if (nested) ((body.extra ??= {}) as Record<string, string[]>)[nested[1]] = messages;
    else body[key] = messages;
  }
  return body;
}
