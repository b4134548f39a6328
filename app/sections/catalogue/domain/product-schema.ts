import { z } from "zod";
import { amount, flag, integer, optionalAmount, optionalInteger, required, text } from "~/lib/field-schemas";
import { idOf, position } from "./fields";
import { SLUG_MAX } from "./slug";

/** An id sent as a number or digits, or null for none. */
const optionalId = (error: string) =>
  z
    .union([z.null(), z.number(), z.string().trim()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const id = idOf(value);
      if (id !== null) return id;
      context.addIssue({ code: "custom", message: error });
      return z.NEVER;
    })
    .optional();

const ImageChangeSchema = z.object({
  id: z.union([z.number(), z.string()]).transform((value, context) => {
    const id = idOf(value);
    if (id !== null) return id;
    context.addIssue({ code: "custom", message: "catalogue_admin.errors.image_unknown" });
    return z.NEVER;
  }),
  position: integer(0, 1000, "catalogue_admin.errors.position").optional(),
  remove: flag,
});

/**
 * A product as the management API (`dashboard/products`) and the product form send it:
 * `{"slug", "name_en", "name_ar", "price", "discounted_price", "inventory", ...}`. Prices are
 * decimal strings in the shop's currency; `inventory` null (or an empty input) is unlimited. Every
 * field optional for a PATCH; a blank slug is made from the English name.
 */
export const ProductSchema = z.object({
  slug: z
    .string()
    .trim()
    .max(SLUG_MAX, "errors.too_long")
    .regex(/^$|^[a-z0-9-]+$/, "catalogue_admin.errors.slug")
    .optional(),
  name_en: required(200).optional(),
  name_ar: required(200).optional(),
  description_en: text(5000),
  description_ar: text(5000),
  price: amount,
  discounted_price: optionalAmount,
  inventory: optionalInteger(0, 1_000_000_000, "catalogue_admin.errors.inventory"),
  /**
   * The inventory the form showed ("" for unlimited; the page sends it): a change applies only if
   * nothing was sold meanwhile, and an unchanged one leaves sales made meanwhile alone.
   */
  inventory_shown: z
    .union([z.null(), z.number(), z.string().trim()])
    .transform((value, context) => {
      if (value === null || value === "") return "";
      const text = String(value);
      if (/^\d{1,10}$/.test(text)) return text;
      context.addIssue({ code: "custom", message: "catalogue_admin.errors.inventory" });
      return z.NEVER;
    })
    .optional(),
  sku: z.union([z.null(), z.string().trim().max(64, "errors.too_long")]).optional(),
  is_active: flag,
  unit: optionalId("catalogue_admin.errors.unit"),
  position,
  /** The product's images as they should be: each one's place, or `remove`. Images not named stay as they are. */
  images: z.array(ImageChangeSchema).max(20, "catalogue_admin.errors.too_many_images").optional(),
});
export type ProductInput = z.output<typeof ProductSchema>;
