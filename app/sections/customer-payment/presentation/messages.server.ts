import type { FieldErrors } from "~/domain/identity/passwords.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";

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
