import { z } from "zod";
import { COUNTRIES } from "~/lib/countries";
import { SUPPORTED_CURRENCIES } from "~/lib/money";

/** Text that may be cleared: empty becomes null. */
const clearable = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "errors.too_long")
    .transform((value) => value || null)
    .nullable();

/** An http(s) address a customer may follow, or nothing. */
const link = clearable(300).refine((value) => value === null || isWebAddress(value), "admin.errors.url");

function isWebAddress(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

const title = z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(120, "errors.too_long");

/**
 * The merchant's profile and the branding of its default unit, as the administration page and
 * `PATCH /api/v1/admin/merchant` send them (field names as the API's). Every field is optional so
 * that the API changes only what it is sent; the page sends them all.
 */
export const MerchantProfileSchema = z
  .object({
    title_en: title,
    title_ar: title,
    subheader: clearable(200),
    website_url: link,
    contact_email: clearable(254).refine(
      (value) => value === null || z.email().safeParse(value).success,
      "errors.invalid_email",
    ),
    country_code: z.enum(COUNTRIES, { error: "admin.errors.country" }),
    currency_code: z.enum(SUPPORTED_CURRENCIES, { error: "admin.errors.currency" }),
    contact_phone: clearable(20).refine(
      (value) => value === null || /^\+?[0-9][0-9 ()-]{5,19}$/.test(value),
      "admin.errors.phone",
    ),
    header_color: z
      .string({ error: "errors.required" })
      .trim()
      .regex(/^(#[0-9a-fA-F]{6}|transparent)$/, "admin.errors.color")
      .transform((value) => value.toLowerCase()),
    unit_title_en: title,
    unit_title_ar: title,
    show_unit_title: z.boolean({ error: "api.invalid_boolean" }),
    unit_website: link,
    instagram_url: link,
    twitter_url: link,
    facebook_url: link,
    terms_en: clearable(5000),
    terms_ar: clearable(5000),
    disclaimer_en: clearable(500),
    disclaimer_ar: clearable(500),
  })
  .partial();

export type MerchantProfileChanges = z.infer<typeof MerchantProfileSchema>;
export type MerchantProfileField = keyof MerchantProfileChanges;

/** The fields in the order the page shows them. */
export const PROFILE_FIELDS = [
  "title_en",
  "title_ar",
  "subheader",
  "website_url",
  "contact_email",
  "contact_phone",
  "country_code",
  "currency_code",
  "unit_title_en",
  "unit_title_ar",
  "header_color",
  "show_unit_title",
  "unit_website",
  "instagram_url",
  "twitter_url",
  "facebook_url",
  "terms_en",
  "terms_ar",
  "disclaimer_en",
  "disclaimer_ar",
] as const satisfies readonly MerchantProfileField[];
