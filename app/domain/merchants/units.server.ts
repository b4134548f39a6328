import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";

/**
 * The merchant's unit a page shows: the given one, else its default (the first unit when none is
 * marked). Callers select the columns they need.
 */
export function unitOf(db: DB, merchantId: number, unitId: number | null = null) {
  const query = db.selectFrom("units").where("merchant_id", "=", merchantId);
  return unitId ? query.where("id", "=", unitId) : query.orderBy("is_default", "desc").orderBy("id");
}

/** The merchant's unit as the public header shows it (spec: public header). */
export async function loadUnitHeader(
  db: DB,
  transaction: { merchant_id: number; unit_id: number | null },
  lang: Language,
) {
  const unit = await unitOf(db, transaction.merchant_id, transaction.unit_id)
    .select([
      "title_en",
      "title_ar",
      "logo_url",
      "header_color",
      "show_unit_title",
      "website",
      "instagram_url",
      "twitter_url",
      "facebook_url",
      "terms_en",
      "terms_ar",
    ])
    // The merchant's own words under the pay button, in the same query.
    .select((eb) =>
      eb
        .selectFrom("merchants")
        .select(lang === "ar" ? "disclaimer_ar" : "disclaimer_en")
        .whereRef("merchants.id", "=", "units.merchant_id")
        .as("disclaimer"),
    )
    .executeTakeFirst();
  if (!unit) return null;
  return {
    title: lang === "ar" ? unit.title_ar : unit.title_en,
    logoUrl: unit.logo_url,
    headerColor: unit.header_color,
    showTitle: Boolean(unit.show_unit_title),
    website: unit.website,
    instagram: unit.instagram_url,
    twitter: unit.twitter_url,
    facebook: unit.facebook_url,
    terms: (lang === "ar" ? unit.terms_ar : unit.terms_en) ?? null,
    /** Null: the platform's own disclaimer. */
    disclaimer: unit.disclaimer ?? null,
  };
}

/** The merchant's default unit as the API answers it (`GET unit/default`): the unit_details of the pay page, with its id, name and terms. */
export async function loadDefaultUnit(db: DB, merchantId: number) {
  const unit = await unitOf(db, merchantId)
    .select([
      "id",
      "name",
      "title_en",
      "title_ar",
      "logo_url",
      "header_color",
      "show_unit_title",
      "website",
      "instagram_url",
      "twitter_url",
      "facebook_url",
      "terms_en",
      "terms_ar",
      "is_default",
    ])
    .executeTakeFirst();
  return unit
    ? { ...unit, show_unit_title: Boolean(unit.show_unit_title), is_default: Boolean(unit.is_default) }
    : null;
}
