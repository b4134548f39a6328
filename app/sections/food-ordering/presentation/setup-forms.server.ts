import { dropBlankRows, nestedFormValues } from "~/lib/form-object";

export { withFlags } from "~/lib/form-object";

/**
 * A page's form as the object the API would send: `sizes[0].name_en` and
 * `option_groups[1].choices[0].price` become nested lists; rows left blank (a new row not filled
 * in, a row cleared to take it away) are dropped. Files are left out, and a name that would reach a
 * prototype (`constructor[prototype][x]`) is ignored.
 */
export function formObject(form: FormData): Record<string, unknown> {
  const values = nestedFormValues(form, {
    maxDepth: 6,
    indexDigits: 3,
    skip: (name) => name.startsWith("_") || name === "intent",
  });
  return dropBlankRows(values) as Record<string, unknown>;
}
