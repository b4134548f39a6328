import { z } from "zod";
import type { DB } from "~/db/database.server";
import type { FieldErrors } from "~/domain/identity/passwords.server";
import { addressGroup, isThrottled, recordHits } from "~/domain/identity/throttle.server";
import { leaveOrderFeedback, mayLeaveFeedback, type PublicOrder } from "./public-menu.server";

/** A customer's feedback on a handed-over order: a rating of 1 to 5 and an optional comment. */
export const OrderFeedbackSchema = z.object({
  rating: z.union([z.number(), z.string().trim()]).transform((value, context) => {
    const number = Number(value);
    if (Number.isInteger(number) && number >= 1 && number <= 5) return number;
    context.addIssue({ code: "custom", message: "food_public.errors.rating" });
    return z.NEVER;
  }),
  comment: z.string().trim().max(1000, "errors.too_long").default(""),
});

const FEEDBACK_RULE = (ip: string | null) => ({
  bucket: `food-feedback:${addressGroup(ip)}`,
  limit: 10,
  windowMs: 60 * 60_000,
});
const CHECKOUT_RULE = (ip: string | null) => ({
  bucket: `food-checkout:${addressGroup(ip)}`,
  limit: 60,
  windowMs: 10 * 60_000,
});

/** Whether this address has placed orders too often lately; each call counts as one. */
export async function checkoutThrottled(db: DB, ip: string | null) {
  const rule = CHECKOUT_RULE(ip);
  if (await isThrottled(db, [rule])) return true;
  await recordHits(db, [rule]);
  return false;
}

/** Keeps the feedback once the order is delivered or picked up, once per order, a few per hour from one address. */
export async function giveOrderFeedback(
  db: DB,
  input: { order: PublicOrder; body: unknown; ip: string | null },
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  if (!mayLeaveFeedback(input.order))
    return { ok: false, errors: { non_field_errors: ["food_public.errors.feedback_not_now"] } };
  const parsed = OrderFeedbackSchema.safeParse(input.body);
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues)
      errors[String(issue.path[0] ?? "non_field_errors")] ??= [
        issue.message.includes(".") ? issue.message : "food_public.errors.invalid",
      ];
    return { ok: false, errors };
  }
  const rule = FEEDBACK_RULE(input.ip);
  if (await isThrottled(db, [rule]))
    return { ok: false, errors: { non_field_errors: ["food_public.errors.throttled"] } };
  await recordHits(db, [rule]);
  if (!(await leaveOrderFeedback(db, input.order.id, parsed.data)))
    return { ok: false, errors: { non_field_errors: ["food_public.errors.feedback_not_now"] } };
  return { ok: true };
}
