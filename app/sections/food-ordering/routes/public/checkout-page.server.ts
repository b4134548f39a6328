import type { FieldErrors } from "~/domain/identity/passwords.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";

/** The core's field errors split for the checkout page: a line's (`lines.2.quantity`) under that line, the others under their field. */
export function splitCheckoutErrors(errors: FieldErrors, params: TextParams | undefined, lang: Language) {
  const fields: Record<string, string> = {};
  const lines: Record<number, string> = {};
  for (const [key, [first]] of Object.entries(errors)) {
    const message = describe(first ?? "errors.required", params, lang);
    const line = /^lines\.(\d+)(?:\.|$)/.exec(key);
    if (line) lines[Number(line[1])] ??= message;
    else fields[key] ??= message;
  }
  return { fields, lines };
}

/** Zod's issues as the core's field errors: the path joined by dots, the message a text key. */
export function issuesAsErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "non_field_errors";
    (errors[key] ??= []).push(
      /^[a-z_]+(\.[a-z_]+)+$/.test(issue.message) ? issue.message : "food_public.errors.invalid",
    );
  }
  return errors;
}
