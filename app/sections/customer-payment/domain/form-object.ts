import { nestedFormValues } from "~/lib/form-object";

/**
 * A posted form as the object the API would send: `text_fields[1].label_en` and `limits.KWD.min`
 * become nested values, names given more than once (`currencies`) lists. Rows of a list left blank
 * (a new row not filled in) are dropped; a name that would reach a prototype is ignored.
 */
export function formObject(form: FormData, lists: readonly string[] = []): Record<string, unknown> {
  const root = nestedFormValues(form, {
    maxDepth: 4,
    indexDigits: 2,
    skip: (name) => name === "intent" || name.startsWith("_") || lists.includes(name),
  });
  for (const name of lists)
    root[name] = form.getAll(name).filter((value): value is string => typeof value === "string" && value !== "");
  for (const [key, value] of Object.entries(root)) {
    if (Array.isArray(value) && !lists.includes(key))
      root[key] = value.filter(
        (row) =>
          row &&
          !(
            typeof row === "object" &&
            Object.entries(row).every(
              ([field, inner]) => field === "name" || field === "required" || String(inner ?? "").trim() === "",
            )
          ),
      );
  }
  return root;
}
