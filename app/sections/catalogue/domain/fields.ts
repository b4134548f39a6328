import { z } from "zod";
import { integer } from "~/lib/field-schemas";

/** Helpers shared by the catalogue's set-up schemas (products, stores, discounts, settings). */

/** A refusal of one field: a translation key and what its message names. */
export type FieldError = { code: string; params?: Record<string, string | number> };
/** Errors by field in the API's names. */
export type FieldErrors = Record<string, FieldError[]>;
export type SaveOutcome<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors; notFound?: boolean };
export type RemoveOutcome = { ok: true; deactivated: boolean } | { ok: false };
export type Actor = { id: number; username: string };
export type Change<T> = { merchantId: number; actor: Actor; input: T; ip?: string | null };

export function addError(errors: FieldErrors, field: string, code: string, params?: FieldError["params"]) {
  (errors[field] ??= []).push(params ? { code, params } : { code });
}

/** A message the schemas give is a translation key; zod's own ("Invalid input: expected string…") are not. */
const TRANSLATION_KEY = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;

/**
 * Zod's issues by field as the API names them. A value of the wrong type (a number for a name, an
 * object for a price) gets the project's translated "not valid" rather than zod's English.
 */
export function issuesByField(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "non_field_errors";
    const code = TRANSLATION_KEY.test(issue.message) ? issue.message : "catalogue_admin.errors.invalid";
    if (!errors[field]?.some((error) => error.code === code)) addError(errors, field, code);
  }
  return errors;
}

/** A positive id from a path or a form, or null. */
export function idOf(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{1,12}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** A place in a list: a whole number, or an empty input for "leave it where it is" (the end, for a new one). */
export const position = z
  .union([z.literal("").transform(() => undefined), integer(0, 1_000_000, "catalogue_admin.errors.position")])
  .optional();
