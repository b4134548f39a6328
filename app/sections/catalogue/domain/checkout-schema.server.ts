import { z } from "zod";
import { MAX_LINE_QUANTITY } from "./limits";

const text = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) => (value ?? "").trim())
    .pipe(z.string().max(max, "errors.too_long"));

const quantity = z.union([z.number(), z.string().trim()]).transform((value, context) => {
  const number = typeof value === "number" ? value : /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isInteger(number) && number >= 1 && number <= MAX_LINE_QUANTITY) return number;
  context.addIssue({ code: "custom", message: "catalogue_public.errors.line_quantity" });
  return z.NEVER;
});

const storeId = z
  .union([z.number(), z.string().trim(), z.null()])
  .optional()
  .transform((value, context) => {
    if (value === null || value === undefined || value === "") return null;
    const number = typeof value === "number" ? value : /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= 1 && number <= 2_147_483_647) return number;
    context.addIssue({ code: "custom", message: "catalogue_public.errors.store" });
    return z.NEVER;
  });

/** A line of a checkout: a product by its slug and how many (public spec §3 catalogue cart item). */
export const CheckoutItemSchema = z.object({
  slug: z.string().trim().min(1, "errors.required").max(200, "errors.too_long"),
  quantity,
});

/**
 * A checkout (the issue's payload): items, an optional discount code, the customer, the payment
 * method; optionally the store to collect from and, on the page, the terms accepted. Never a price.
 */
export const CheckoutSchema = z.object({
  items: z
    .array(CheckoutItemSchema, { message: "catalogue_public.errors.items" })
    .min(1, "catalogue_public.errors.empty_cart")
    .max(50, "catalogue_public.errors.too_many_items"),
  discount_code: text(40),
  customer_name: text(100).pipe(z.string().min(1, "errors.required")),
  customer_email: text(254).pipe(z.string().min(1, "errors.required").email("errors.invalid_email")),
  customer_phone: text(30),
  gateway_code: text(50).pipe(z.string().min(1, "errors.required")),
  store: storeId,
  accept_terms: z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal(""), z.null()])
    .optional()
    .transform((value) => value === true || value === "on" || value === "true"),
});

export type CheckoutInput = z.infer<typeof CheckoutSchema>;

/** Zod's issues as problems by field: the path joined by dots, the message a text key. */
export function problemsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const problems: Record<string, { code: string }> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "non_field_errors";
    problems[key] ??= {
      code: /^[a-z_]+(\.[a-z_]+)+$/.test(issue.message) ? issue.message : "catalogue_public.errors.invalid",
    };
  }
  return problems;
}
