import { z } from "zod";
import { SUPPORTED_CURRENCIES } from "~/lib/money";

const text = (max: number) =>
  z
    .string({ error: "sessions.errors.text" })
    .trim()
    .max(max, "errors.too_long")
    .optional()
    .transform((value) => value || undefined);

const address = z
  .string({ error: "sessions.errors.url" })
  .trim()
  .max(2000, "errors.too_long")
  .optional()
  .transform((value) => value || undefined)
  .pipe(z.url({ protocol: /^https?$/, error: "sessions.errors.url" }).optional())
  .transform((value) => (value ? new URL(value).href : value));

const codes = z
  .union([z.array(z.string().max(40)), z.string().max(400)], { error: "sessions.errors.pg_codes" })
  .transform((value) => [
    ...new Set((Array.isArray(value) ? value : value.split(",")).map((code) => code.trim()).filter(Boolean)),
  ]);

/** What a merchant's server may change on a session while it is unpaid (PATCH); the same names as creating it. */
export const SessionChangesSchema = z.object({
  amount: z
    .string({ error: "sessions.errors.amount_text" })
    .trim()
    .min(1, "errors.required")
    .max(20, "money.too_large")
    .optional(),
  pg_codes: codes.optional(),
  customer_first_name: text(100),
  customer_last_name: text(100),
  customer_email: z
    .string({ error: "errors.invalid_email" })
    .trim()
    .max(254, "errors.too_long")
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.email({ error: "errors.invalid_email" }).optional()),
  customer_phone: text(30),
  /** An ISO-8601 timestamp with its offset, or a Kuwait time without one. */
  expiration_time: text(40),
  redirect_url: address,
  webhook_url: address,
});

/** A session as a merchant's server asks for one (POST pymt-txn): the shape Kuwaiti gateways use. */
export const SessionSchema = SessionChangesSchema.extend({
  type: z.enum(["e_commerce", "payment_request"], { error: "sessions.errors.type" }),
  amount: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(20, "money.too_large"),
  currency_code: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.enum(SUPPORTED_CURRENCIES, { error: "sessions.errors.currency" }).optional(),
  ),
  pg_codes: codes,
  order_no: text(100),
  description: text(2000),
  /** A file_url from attachment/upload (as payment requests take one). */
  attachment: text(300),
  language: z.enum(["en", "ar"], { error: "sessions.errors.language" }).optional(),
});

export type SessionInput = z.infer<typeof SessionSchema>;
export type SessionChanges = z.infer<typeof SessionChangesSchema>;

/** Zod's issues as DRF's field errors (translation keys), by the API's field names. */
export function issuesAsErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
  return errors;
}
