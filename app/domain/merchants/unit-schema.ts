import { z } from "zod";
import { MerchantProfileSchema } from "./profile-schema";

// A unit's branding follows the same rules as the default unit's on the profile (colours that can
// stand in a style attribute, http(s) links, titles and terms of the same lengths).
const profile = MerchantProfileSchema.shape;

/**
 * A unit as the administration pages and `/api/v1/admin/units` send it (field names as the
 * `units` table's). `name` is the merchant's own name for it, unique among its units; the titles
 * are what customers see. Every field is optional so that PATCH changes only what it is sent.
 */
export const UnitSchema = z
  .object({
    name: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(60, "errors.too_long"),
    title_en: profile.unit_title_en.unwrap(),
    title_ar: profile.unit_title_ar.unwrap(),
    header_color: profile.header_color.unwrap(),
    show_unit_title: profile.show_unit_title.unwrap(),
    website: profile.unit_website.unwrap(),
    instagram_url: profile.instagram_url.unwrap(),
    twitter_url: profile.twitter_url.unwrap(),
    facebook_url: profile.facebook_url.unwrap(),
    terms_en: profile.terms_en.unwrap(),
    terms_ar: profile.terms_ar.unwrap(),
  })
  .partial();

/** A new unit needs its name and its titles; the rest has defaults (a white header showing the title). */
export const NewUnitSchema = UnitSchema.required({ name: true, title_en: true, title_ar: true });

export type UnitChanges = z.infer<typeof UnitSchema>;
export type NewUnit = z.infer<typeof NewUnitSchema>;
export type UnitField = keyof UnitChanges;

/** The fields in the order the page shows them (and the audit names them). */
export const UNIT_FIELDS = [
  "name",
  "title_en",
  "title_ar",
  "header_color",
  "show_unit_title",
  "website",
  "instagram_url",
  "twitter_url",
  "facebook_url",
  "terms_en",
  "terms_ar",
] as const satisfies readonly UnitField[];

/**
 * A JSON body checked against a schema of units, DRF-style: each refused field with its
 * translation keys; a field it may not send (`id`, `is_default`, `logo_url`, anything unknown)
 * refused by name.
 */
export function checkUnitBody<Schema extends typeof UnitSchema | typeof NewUnitSchema>(
  schema: Schema,
  body: Record<string, unknown>,
): { ok: true; value: z.infer<Schema> } | { ok: false; errors: Record<string, string[]> } {
  const parsed = schema.strict().safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data as z.infer<Schema> };
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) (errors[key] ??= []).push("api.read_only_field");
      continue;
    }
    // The schema's own messages are translation keys; zod's (a number sent for a text) are not.
    const key = /^[a-z_]+(\.[a-z_]+)+$/.test(issue.message) ? issue.message : "admin.errors.invalid";
    (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(key);
  }
  return { ok: false, errors };
}
