import type { Language } from "~/lib/i18n";
import { describe } from "~/presentation/texts.server";
import type { FieldErrors } from "../domain/fields";

/** The domain's refusals as sentences in `lang`, by field (the API's DRF shape). */
export function fieldErrorMessages(errors: FieldErrors, lang: Language): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, list]) => [
      field,
      list.map((error) => describe(error.code, error.params, lang)),
    ]),
  );
}

/** "images.0.position" (the domain's, the API's) → "images[0].position" (the form's input names). */
export function formFieldErrors(errors: FieldErrors, lang: Language): Record<string, string[]> {
  const messages = fieldErrorMessages(errors, lang);
  return Object.fromEntries(
    Object.entries(messages).map(([field, list]) => [field.replace(/\.(\d+)(?=\.|$)/g, "[$1]"), list]),
  );
}
