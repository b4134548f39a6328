import { z } from "zod";

/**
 * Zod pieces for the values a set-up form or API sends: texts, flags, whole numbers and decimal
 * amounts, as form text or as JSON. Their messages are translation keys.
 */

/** A text of at most `max` characters; absent stays absent (PATCH), an empty one is "". */
export const text = (max: number) => z.string().trim().max(max, "errors.too_long").optional();

/** A required text (1 to `max` characters). */
export const required = (max: number) =>
  z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(max, "errors.too_long");

/** A checkbox as a form sends it ("on", or nothing) or a yes/no as JSON sends it. */
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
export const optionalAmount = z
  .union([z.null(), z.string().trim().max(20, "money.invalid"), z.number().transform(String)])
  .optional();
