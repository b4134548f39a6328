import { z } from "zod";
import { amount, flag, integer, required, text } from "~/lib/field-schemas";
import { coordinate, idOf, image } from "./setup-fields";

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const HourSchema = z.object({
  weekday: integer(1, 7, "food_setup.errors.weekday"),
  opens: z.string({ error: "errors.required" }).trim().regex(TIME, "food_setup.errors.time"),
  closes: z.string({ error: "errors.required" }).trim().regex(TIME, "food_setup.errors.time"),
});
export type HourInput = z.output<typeof HourSchema>;

/**
 * A branch as the API (`dashboard/branches`) and the branch page send it; every field optional for
 * a PATCH. `hours`, when sent, is the whole week: intervals of a weekday (1 Monday … 7 Sunday).
 */
export const BranchSchema = z.object({
  name_en: required(120).optional(),
  name_ar: required(120).optional(),
  email: z
    .union([z.null(), z.literal(""), z.string().trim().max(254, "errors.too_long").email("food_setup.errors.email")])
    .optional(),
  phone: z
    .union([
      z.null(),
      z
        .string()
        .trim()
        .max(30, "errors.too_long")
        .regex(/^\+?[\d\s-]{0,20}$/, "food_setup.errors.phone"),
    ])
    .optional(),
  /** HTML; only b, i, strong, em, br and p are kept, without attributes. */
  address: text(4000),
  image,
  minimum_order_sum: amount,
  delivery_time: integer(0, 1440, "food_setup.errors.delivery_time").optional(),
  lat: coordinate(90),
  lng: coordinate(180),
  offers_pickup: flag,
  offers_delivery: flag,
  offers_catering: flag,
  is_active: flag,
  position: integer(0, 100_000, "food_setup.errors.position").optional(),
  hours: z.array(HourSchema).max(70, "food_setup.errors.too_many").optional(),
});
export type BranchInput = z.output<typeof BranchSchema>;

/** A delivery area of a branch as the API (`dashboard/delivery-areas`) and the branch page send it. */
export const DeliveryAreaSchema = z.object({
  branch: z
    .union([z.number(), z.string()])
    .transform((value, context) => {
      const id = idOf(value);
      if (id !== null) return id;
      context.addIssue({ code: "custom", message: "food.errors.branch" });
      return z.NEVER;
    })
    .optional(),
  area: z.string().trim().min(1, "errors.required").max(120, "errors.too_long").optional(),
  zone: text(120),
  charge: amount,
  min_order: amount,
  is_active: flag,
});
export type DeliveryAreaInput = z.output<typeof DeliveryAreaSchema>;

/**
 * A weekday's intervals as the branch page takes them, "09:00-13:00, 16:00-23:30" (a dash or an en
 * dash), into the API's rows; null when the text cannot be read.
 */
export function hoursFromText(
  weekday: number,
  value: string,
): { weekday: number; opens: string; closes: string }[] | null {
  const parts = value
    .split(/[,;\n]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const rows = [];
  for (const part of parts) {
    const match = /^(\d{1,2}:\d{2})\s*[-–—]\s*(\d{1,2}:\d{2})$/.exec(part);
    if (!match) return null;
    rows.push({ weekday, opens: match[1].padStart(5, "0"), closes: match[2].padStart(5, "0") });
  }
  return rows;
}

/** The intervals of a weekday as the page shows them. */
export function hoursToText(hours: readonly { weekday: number; opens: string; closes: string }[], weekday: number) {
  return hours
    .filter((interval) => interval.weekday === weekday)
    .map((interval) => `${interval.opens}-${interval.closes}`)
    .join(", ");
}
