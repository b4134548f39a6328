/**
 * A page's form as the object the API would send: `images[0].position` becomes a list of objects;
 * rows left blank are dropped. Files, `intent` and names starting with `_` are left out.
 */
export function formObject(form: FormData): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || name.startsWith("_") || name === "intent") continue;
    const path = name.match(/[^[\].]+/g);
    if (!path || path.length > 4) continue;
    let node: any = root;
    for (const [index, key] of path.entries()) {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d{1,3}$/.test(path[index + 1]);
      if (last) node[key] = value;
      else node = node[key] ??= nextIsIndex ? [] : {};
    }
  }
  return compact(root) as Record<string, unknown>;
}

function blank(value: unknown): boolean {
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.every(blank);
  if (value && typeof value === "object") return Object.values(value).every(blank);
  return value === undefined || value === null;
}

function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((row) => row !== undefined && !(row && typeof row === "object" && blank(row))).map(compact);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, compact(inner)]));
  return value;
}

/** A form leaves an unticked box out: on a page that sends the whole record it means "no". */
export function withFlags<T extends Record<string, unknown>>(values: T, flags: readonly string[]): T {
  const out: Record<string, unknown> = { ...values };
  for (const flag of flags) out[flag] = out[flag] === undefined ? false : out[flag];
  return out as T;
}
