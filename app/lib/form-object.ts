/**
 * A posted form's text fields as the nested object an API would be sent: `sizes[0].name_en` and
 * `limits.KWD.min` become lists and objects. Field names come from whoever posts the form, so they
 * are followed only where they cannot reach anything but the object being built:
 *
 * - `__proto__`, `constructor` and `prototype` are never a step (they would lead to
 *   Object.prototype, and from there to every object of the server);
 * - a list takes only indices (never `length`, `push`…), at most `indexDigits` digits;
 * - a name that goes through a value already given as text (`a=1` then `a[b]=2`) is left out;
 * - the tree is built from objects without a prototype, and answered as plain objects.
 *
 * Files and names `skip` refuses are left out, as are names deeper than `maxDepth` steps.
 */
export function nestedFormValues(
  form: FormData,
  options: { maxDepth: number; indexDigits: number; skip?: (name: string) => boolean },
): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null);
  const index = new RegExp(`^\\d{1,${options.indexDigits}}$`);
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || options.skip?.(name)) continue;
    const path = name.match(/[^[\].]+/g);
    if (!path || path.length > options.maxDepth || path.some((step) => FORBIDDEN_STEPS.has(step))) continue;
    placeAt(root, path, value, index);
  }
  return plain(root) as Record<string, unknown>;
}

/** Steps that lead out of the object being built into a prototype. */
export const FORBIDDEN_STEPS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

function placeAt(root: Record<string, unknown>, path: readonly string[], value: string, index: RegExp) {
  let node: Record<string, unknown> | unknown[] = root;
  for (const [at, step] of path.entries()) {
    const inList = Array.isArray(node);
    if (inList && !index.test(step)) return;
    const slot = node as Record<string, unknown>;
    const key = inList ? Number(step) : step;
    if (at === path.length - 1) {
      // A value never replaces a list or object another field of the form built.
      if (slot[key as string] === undefined || typeof slot[key as string] === "string") slot[key as string] = value;
      return;
    }
    const existing = slot[key as string];
    if (existing === undefined) {
      const child: Record<string, unknown> | unknown[] = index.test(path[at + 1]) ? [] : Object.create(null);
      slot[key as string] = child;
      node = child;
    } else if (existing !== null && typeof existing === "object")
      node = existing as Record<string, unknown> | unknown[];
    else return;
  }
}

/** The built tree with ordinary objects (what zod and the pages expect), holes in lists kept as holes. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((item, at) => (out[at] = plain(item)));
    out.length = value.length;
    return out;
  }
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plain(inner)]));
  return value;
}

function blank(value: unknown): boolean {
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.every(blank);
  if (value && typeof value === "object") return Object.values(value).every(blank);
  return value === undefined || value === null;
}

/** Rows of lists left blank (a new row not filled in, a row cleared to take it away) dropped, at every depth. */
export function dropBlankRows(value: unknown): unknown {
  if (Array.isArray(value))
    return value
      .filter((row) => row !== undefined && !(row && typeof row === "object" && blank(row)))
      .map(dropBlankRows);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, dropBlankRows(inner)]));
  return value;
}

/** A form leaves an unticked box out: on a page that sends the whole record it means "no". */
export function withFlags<T extends Record<string, unknown>>(values: T, flags: readonly string[]): T {
  const out: Record<string, unknown> = { ...values };
  for (const flag of flags) out[flag] = out[flag] === undefined ? false : out[flag];
  return out as T;
}
