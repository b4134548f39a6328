import { z } from "zod";
import { amount, flag, integer, optionalAmount, optionalInteger, required, text } from "~/lib/field-schemas";
import { idOf, image } from "./setup-fields";

/** A menu category as the API (`dashboard/categories`) and the menu editor send it; every field optional for a PATCH. */
export const CategorySchema = z.object({
  name_en: required(120).optional(),
  name_ar: required(120).optional(),
  description_en: text(2000),
  description_ar: text(2000),
  image,
  position: integer(0, 100_000, "food_setup.errors.position").optional(),
  is_active: flag,
  is_catering: flag,
  min_plates: integer(0, 100_000, "food_setup.errors.min_plates").optional(),
  /** A decimal string in the merchant's currency. */
  service_charge: amount,
});
export type CategoryInput = z.output<typeof CategorySchema>;

const priced = z.object({ name_en: required(120), name_ar: required(120), price: amount });

const OptionGroupSchema = z.object({
  name_en: required(120),
  name_ar: required(120),
  min_choices: integer(0, 50, "food_setup.errors.choices_limit").optional(),
  max_choices: integer(1, 50, "food_setup.errors.choices_limit").optional(),
  choices: z.array(priced).max(50, "food_setup.errors.too_many").optional(),
});

/** A dish as the API (`dashboard/menu-items`) and the item editor send it; every field optional for a PATCH. */
export const MenuItemSchema = z.object({
  category: z
    .union([z.number(), z.string()])
    .transform((value, context) => {
      const id = idOf(value);
      if (id !== null) return id;
      context.addIssue({ code: "custom", message: "food.errors.category" });
      return z.NEVER;
    })
    .optional(),
  sku: z.union([z.null(), z.string().trim().max(64, "errors.too_long")]).optional(),
  name_en: required(120).optional(),
  name_ar: required(120).optional(),
  description_en: text(2000),
  description_ar: text(2000),
  image,
  price: amount,
  discounted_price: optionalAmount,
  /** Portions left; null (or an empty input) is unlimited. */
  quantity: optionalInteger(0, 1_000_000, "food_setup.errors.quantity"),
  /**
   * The portions left when the form was made ("" for unlimited; the page sends it): a change of the
   * quantity applies only if nothing was sold meanwhile, and an unchanged one leaves sales alone.
   */
  quantity_shown: z.string().trim().max(12).optional(),
  is_available: flag,
  is_promoted: flag,
  position: integer(0, 100_000, "food_setup.errors.position").optional(),
  sizes: z.array(priced).max(20, "food_setup.errors.too_many").optional(),
  add_ons: z.array(priced).max(50, "food_setup.errors.too_many").optional(),
  option_groups: z.array(OptionGroupSchema).max(20, "food_setup.errors.too_many").optional(),
});
export type MenuItemInput = z.output<typeof MenuItemSchema>;
