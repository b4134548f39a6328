import { z } from "zod";
import { amount, flag, optionalAmount, optionalInteger } from "~/lib/field-schemas";

/** A date ("2026-12-31") or a moment (ISO, with or without its offset; Kuwait time without), or null for none. */
const moment = z.union([z.null(), z.string().trim().max(40, "food_setup.errors.date")]).optional();

/**
 * A voucher as the API (`dashboard/vouchers`) and the vouchers page send it:
 * `{"code", "discount_type": "percentage"|"fixed", "amount", "valid_from", "valid_to", "min_total",
 * "max_uses", "max_uses_per_customer"}`. A percentage's amount is "10" for 10%; a fixed one is in
 * the merchant's currency. Every field optional for a PATCH.
 */
export const VoucherSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, "errors.required")
    .max(40, "errors.too_long")
    .regex(/^[A-Za-z0-9_-]+$/, "food_setup.errors.code")
    .optional(),
  discount_type: z.enum(["percentage", "fixed"], { error: "food_setup.errors.discount_type" }).optional(),
  amount,
  valid_from: moment,
  valid_to: moment,
  min_total: optionalAmount,
  max_uses: optionalInteger(1, 10_000_000, "food_setup.errors.max_uses"),
  max_uses_per_customer: optionalInteger(1, 10_000_000, "food_setup.errors.max_uses"),
  is_active: flag,
});
export type VoucherInput = z.output<typeof VoucherSchema>;
