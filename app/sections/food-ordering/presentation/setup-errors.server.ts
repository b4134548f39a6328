import type { Language } from "~/lib/i18n";
import { describe } from "~/presentation/texts.server";
import type { SetupErrors } from "../domain/setup-fields";

/** The set-up domain's refusals as sentences in `lang`, by field (the API's DRF shape). */
export function setupErrorMessages(errors: SetupErrors, lang: Language): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, list]) => [
      field,
      list.map((error) => describe(error.code, error.params, lang)),
    ]),
  );
}

/** "sizes.0.price" (the domain's, the API's) → "sizes[0].price" (the form's input names). */
export function formFieldErrors(errors: SetupErrors, lang: Language): Record<string, string[]> {
  const messages = setupErrorMessages(errors, lang);
  return Object.fromEntries(
    Object.entries(messages).map(([field, list]) => [field.replace(/\.(\d+)(?=\.|$)/g, "[$1]"), list]),
  );
}
