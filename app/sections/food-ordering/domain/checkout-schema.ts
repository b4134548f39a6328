import { z } from "zod";

const id = (error: string) =>
  z.union([z.number(), z.string().trim()]).transform((value, context) => {
    const number = typeof value === "number" ? value : /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= 1 && number <= 2_147_483_647) return number;
    context.addIssue({ code: "custom", message: error });
    return z.NEVER;
  });

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "errors.too_long")
    .optional()
    .transform((value) => value || undefined);

/** A line of a checkout (public spec §3 checkout line). */
export const CheckoutLineSchema = z.object({
  menu_item: id("food.errors.menu_item"),
  category_id: id("food.errors.category").optional(),
  quantity: z.union([z.number(), z.string().trim()]).transform((value, context) => {
    const number = typeof value === "number" ? value : /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(number) && number >= 1 && number <= 999) return number;
    context.addIssue({ code: "custom", message: "food.errors.quantity" });
    return z.NEVER;
  }),
  size: z
    .union([id("food.errors.size"), z.literal(""), z.null()])
    .optional()
    .transform((value) => (value === "" || value === null ? undefined : value)),
  add_ons: z.array(id("food.errors.add_on")).max(50).default([]),
  /** Group id → chosen choice id, or ids when the group allows several. */
  options: z
    .record(z.string(), z.union([id("food.errors.option"), z.array(id("food.errors.option")).max(20)]))
    .default({}),
  special_instructions: z.string().trim().max(256, "food.errors.instructions_too_long").default(""),
});

/** The customer's delivery address (public spec §3 customer address info). */
export const AddressSchema = z.object({
  address: z.string().trim().max(40).default("Home"),
  custom_address: text(100),
  area: text(100),
  block: text(20),
  street: text(100),
  avenue: text(40),
  house_no: text(20),
  floor: text(20),
  office_no: text(20),
  paci_no: text(20),
  special_instructions: text(256),
  delivery_location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
});

/**
 * A checkout as the public API (`POST checkout`, `catering-checkout`) and the checkout page send it.
 * Prices are never taken from here: the server prices every line.
 */
export const CheckoutSchema = z.object({
  delivery_type: z.enum(["pickup", "delivery", "catering"], { error: "food.errors.delivery_type" }),
  branch: id("food.errors.branch"),
  delivery_area: z
    .union([id("food.errors.delivery_area"), z.literal(""), z.null()])
    .optional()
    .transform((value) => (value === "" || value === null ? undefined : value)),
  /** Kuwait time "YYYY-MM-DDTHH:MM", or ISO with an offset; blank: as soon as possible. */
  scheduled_for: text(40),
  voucher: text(40),
  customer_name: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(100, "errors.too_long"),
  customer_email: z
    .string()
    .trim()
    .max(254, "errors.too_long")
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.email({ error: "errors.invalid_email" }).optional()),
  customer_phone: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(30, "errors.too_long"),
  address: AddressSchema.optional(),
  gateway_code: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(40),
  lines: z.array(CheckoutLineSchema, { error: "food.errors.lines" }).min(1, "food.errors.empty_cart").max(100),
});

export type CheckoutInput = z.output<typeof CheckoutSchema>;
export type CheckoutLineInput = z.output<typeof CheckoutLineSchema>;
