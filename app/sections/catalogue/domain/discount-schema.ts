import { z } from "zod";
import { amount, flag, optionalAmount, optionalInteger } from "~/lib/field-schemas";

/** A date ("2026-12-31") or a moment (ISO, with or without its offset; Kuwait time without), or null for none. */
const moment = z.union([z.null(), z.string().trim().max(40, "catalogue_admin.errors.date")]).optional();

/**
 * A discount code as the management API (`dashboard/discounts`) and the discount form send it:
 * `{"code", "discount_type": "percentage"|"fixed", "amount", "valid_from", "valid_to", "min_total",
 * "max_uses", "is_active"}`. A percentage's amount is "10" for 10%; a fixed one is in the shop's
 * currency. `used` is the orders' to count and is never sent. Every field optional for a PATCH.
 */
export const DiscountSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "errors.required")
    .max(40, "errors.too_long")
    .regex(/^[A-Za-z0-9_-]+$/, "catalogue_admin.errors.code")
    .optional(),
  discount_type: z.enum(["percentage", "fixed"], { error: "catalogue_admin.errors.discount_type" }).optional(),
  amount,
  valid_from: moment,
  valid_to: moment,
  min_total: optionalAmount,
  max_uses: optionalInteger(1, 10_000_000, "catalogue_admin.errors.max_uses"),
  is_active: flag,
});
export type DiscountInput = z.output<typeof DiscountSchema>;
