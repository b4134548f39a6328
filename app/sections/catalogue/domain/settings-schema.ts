import { z } from "zod";
import { flag, text } from "~/lib/field-schemas";

/** An address the banner leads to: an https URL or a path of this site, or "" for none. */
const link = z
  .string()
  .trim()
  .max(500, "errors.too_long")
  .refine(
    (value) => value === "" || /^https:\/\/[^\s"'<>]+$/i.test(value) || /^\/(?!\/)[^\s"'<>\\]*$/.test(value),
    "catalogue_admin.errors.link",
  )
  .optional();

/** The shop's configuration as the settings form sends it (the banner's picture comes as a file beside it). */
export const CatalogueSettingsSchema = z.object({
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, "catalogue_admin.errors.currency")
    .optional(),
  show_banner: flag,
  label_store_en: text(100),
  label_store_ar: text(100),
  /** "" (or null): the currency's own decimals. */
  decimal_places: z
    .union([z.null(), z.number(), z.string().trim()])
    .transform((value, context) => {
      if (value === null || value === "") return null;
      const number = typeof value === "number" ? value : /^\d$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isInteger(number) && number >= 0 && number <= 3) return number;
      context.addIssue({ code: "custom", message: "catalogue_admin.errors.decimal_places" });
      return z.NEVER;
    })
    .optional(),
  terms_en: text(10_000),
  terms_ar: text(10_000),
  banner_title_en: text(200),
  banner_title_ar: text(200),
  banner_subtitle_en: text(500),
  banner_subtitle_ar: text(500),
  banner_link: link,
  remove_banner_image: flag,
});
export type CatalogueSettingsInput = z.output<typeof CatalogueSettingsSchema>;
