import { z } from "zod";

/** Helpers shared by the set-up schemas (menu, branches, areas, vouchers, settings). */

/** A coordinate, or null for none. */
export const coordinate = (limit: number) =>
  z
    .union([z.number(), z.string().trim(), z.null()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const number =
        typeof value === "number" ? value : /^-?\d{1,3}(\.\d{1,10})?$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isFinite(number) && Math.abs(number) <= limit) return number;
      context.addIssue({ code: "custom", message: "food_setup.errors.coordinate" });
      return z.NEVER;
    })
    .optional();

/** An image's address: an https URL or a path of this site, or null for none. */
export const image = z
  .union([z.null(), z.string().trim().max(500, "errors.too_long")])
  .transform((value, context) => {
    if (value === null || value === "") return null;
    if (/^https:\/\/[^\s"'<>]+$/i.test(value) || /^\/(?!\/)[^\s"'<>\\]*$/.test(value)) return value;
    context.addIssue({ code: "custom", message: "food_setup.errors.image" });
    return z.NEVER;
  })
  .optional();

/** A refusal of one field: a translation key and what its message names. */
export type SetupError = { code: string; params?: Record<string, string | number> };
/** Errors by field in the API's names: `sizes.0.price`, `hours.2.closes`. */
export type SetupErrors = Record<string, SetupError[]>;
export type SetupOutcome<T> = { ok: true; value: T } | { ok: false; errors: SetupErrors; notFound?: boolean };
export type Actor = { id: number; username: string };

export function addError(errors: SetupErrors, field: string, code: string, params?: SetupError["params"]) {
  (errors[field] ??= []).push(params ? { code, params } : { code });
}

/** Zod's issues by field as the API names them. */
export function issuesByField(issues: readonly { path: readonly PropertyKey[]; message: string }[]): SetupErrors {
  const errors: SetupErrors = {};
  for (const issue of issues)
    addError(errors, issue.path.length ? issue.path.map(String).join(".") : "non_field_errors", issue.message);
  return errors;
}

/** A positive id from a path or a form, or null. */
export function idOf(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{1,12}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}
