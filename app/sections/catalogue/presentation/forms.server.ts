import { dropBlankRows, nestedFormValues } from "~/lib/form-object";

export { withFlags } from "~/lib/form-object";

/**
 * A page's form as the object the API would send: `images[0].position` becomes a list of objects;
 * rows left blank are dropped. Files, `intent` and names starting with `_` are left out; a name
 * that would reach a prototype (`constructor[prototype][x]`, `images[0][__proto__][x]`) is ignored.
 */
export function formObject(form: FormData): Record<string, unknown> {
  const values = nestedFormValues(form, {
    maxDepth: 4,
    indexDigits: 3,
    skip: (name) => name.startsWith("_") || name === "intent",
  });
  return dropBlankRows(values) as Record<string, unknown>;
}
