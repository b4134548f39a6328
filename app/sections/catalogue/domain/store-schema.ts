import { z } from "zod";
import { flag, required, text } from "~/lib/field-schemas";
import { position } from "./fields";

/**
 * A store as the management API (`dashboard/stores`) and the store form send it. `products` is
 * null (or absent on a new store) for a store that carries every product, or the slugs of those it
 * carries. Every field optional for a PATCH.
 */
export const StoreSchema = z.object({
  name_en: required(200).optional(),
  name_ar: required(200).optional(),
  address_en: text(1000),
  address_ar: text(1000),
  phone: z
    .union([
      z.null(),
      z
        .string()
        .trim()
        .max(30, "errors.too_long")
        .regex(/^$|^\+?[\d\s()-]{5,30}$/, "catalogue_admin.errors.phone"),
    ])
    .optional(),
  is_active: flag,
  position,
  products: z
    .union([z.null(), z.array(z.string().trim().max(80)).max(5000, "catalogue_admin.errors.too_many")])
    .optional(),
});
export type StoreInput = z.output<typeof StoreSchema>;
