import type { Language } from "~/lib/i18n";
import { describe } from "~/presentation/texts.server";
import type { EventErrors } from "../domain/events.server";

/** The domain's refusals as sentences in `lang`, by field (the API's DRF shape). */
export function eventErrorMessages(errors: EventErrors, lang: Language): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, list]) => [
      field,
      list.map((error) => describe(error.code, error.params, lang)),
    ]),
  );
}

/** Zod's issues as the API names fields: `tickets.0.price`. */
export function issuesByField(issues: readonly { path: readonly PropertyKey[]; message: string }[]): EventErrors {
  const errors: EventErrors = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "non_field_errors";
    (errors[field] ??= []).push({ code: issue.message });
  }
  return errors;
}
