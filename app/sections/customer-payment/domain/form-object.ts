/**
 * A posted form as the object the API would send: `text_fields[1].label_en` and `limits.KWD.min`
 * become nested values, names given more than once (`currencies`) lists. Rows of a list left blank
 * (a new row not filled in) are dropped.
 */
export function formObject(form: FormData, lists: readonly string[] = []): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const name of lists) root[name] = form.getAll(name).filter((value): value is string => typeof value === "string" && value !== "");
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || name === "intent" || name.startsWith("_") || lists.includes(name)) continue;
    const path = name.match(/[^[\].]+/g);
    if (!path || path.length > 4) continue;
    let node: any = root;
    for (const [index, key] of path.entries()) {
      if (index === path.length - 1) node[key] = value;
      else node = node[key] ??= /^\d{1,2}$/.test(path[index + 1]) ? [] : {};
    }
  }
  for (const [key, value] of Object.entries(root)) {
    if (Array.isArray(value) && !lists.includes(key)) root[key] = value.filter((row) => row && !(typeof row === "object" && Object.entries(row).every(([field, inner]) => field === "name" || field === "required" || String(inner ?? "").trim() === "")));
  }
  return root;
}
