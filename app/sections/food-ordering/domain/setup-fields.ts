import { z } from "zod";

/** Helpers shared by the set-up schemas (menu, branches, areas, vouchers, settings). */

/** A text of at most `max` characters; absent stays absent (PATCH), an empty one is "". */
export const text = (max: number) => z.string().trim().max(max, "errors.too_long").optional();

/** A required text (1 to `max` characters). */
export const required = (max: number) => z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(max, "errors.too_long");

export const flag = z
  .union([z.boolean(), z.enum(["on", "true", "false", "1", "0", ""])])
  .transform((value) => value === true || value === "on" || value === "true" || value === "1")
  .optional();

/** A whole number from `min` to `max`, sent as a number or as digits. */
export const integer = (min: number, max: number, error: string) =>
  z.union([z.number(), z.string().trim()]).transform((value, context) => {
    const number = typeof value === "number" ? value : /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    context.addIssue({ code: "custom", message: error });
    return z.NEVER;
  });

/** A whole number, or null for none (an empty input, or null). */
export const optionalInteger = (min: number, max: number, error: string) =>
  z
    .union([z.null(), z.number(), z.string().trim()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const number = typeof value === "number" ? value : /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isInteger(number) && number >= min && number <= max) return number;
      context.addIssue({ code: "custom", message: error });
      return z.NEVER;
    })
    .optional();

/** A decimal amount as text ("1.500"); the domain parses it in the merchant's currency. */
export const amount = z.union([z.string().trim().max(20, "money.invalid"), z.number().transform(String)]).optional();

/** A decimal amount or null (none). */
export const optionalAmount = z.union([z.null(), z.string().trim().max(20, "money.invalid"), z.number().transform(String)]).optional();

/** A coordinate, or null for none. */
export const coordinate = (limit: number) =>
  z
    .union([z.number(), z.string().trim(), z.null()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const number = typeof value === "number" ? value : /^-?\d{1,3}(\.\d{1,10})?$/.test(value) ? Number(value) : Number.NaN;
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
  for (const issue of issues) addError(errors, issue.path.length ? issue.path.map(String).join(".") : "non_field_errors", issue.message);
  return errors;
}

/** A positive id from a path or a form, or null. */
export function idOf(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{1,12}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}
