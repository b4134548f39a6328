import { z } from "zod";
import { flag, text } from "~/lib/field-schemas";
import { image } from "./setup-fields";

const BannerSchema = z.object({ image, title_en: text(200), title_ar: text(200) });

/** The menu settings as the settings page sends them (promoted dishes are the items marked promoted). */
export const FoodSettingsSchema = z.object({
  menu_title_en: text(200),
  menu_title_ar: text(200),
  show_images: flag,
  banner_text_en: text(500),
  banner_text_ar: text(500),
  banners: z.array(BannerSchema).max(10, "food_setup.errors.too_many").optional(),
});
export type FoodSettingsInput = z.output<typeof FoodSettingsSchema>;
