import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { list, word } from "~/lib/outcome";
import { unitOf } from "./units.server";
import { PROFILE_FIELDS, type MerchantProfileChanges, type MerchantProfileField } from "./profile-schema";

export type MerchantProfile = {
  title_en: string;
  title_ar: string;
  subheader: string | null;
  website_url: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  country_code: string;
  currency_code: string;
  disclaimer_en: string | null;
  disclaimer_ar: string | null;
  unit_title_en: string;
  unit_title_ar: string;
  header_color: string;
  show_unit_title: boolean;
  unit_website: string | null;
  instagram_url: string | null;
  twitter_url: string | null;
  facebook_url: string | null;
  terms_en: string | null;
  terms_ar: string | null;
};

const MERCHANT_COLUMNS = [
  "title_en",
  "title_ar",
  "subheader",
  "website_url",
  "contact_email",
  "contact_phone",
  "country_code",
  "currency_code",
  "disclaimer_en",
  "disclaimer_ar",
] as const;
const UNIT_COLUMNS = {
  unit_title_en: "title_en",
  unit_title_ar: "title_ar",
  header_color: "header_color",
  show_unit_title: "show_unit_title",
  unit_website: "website",
  instagram_url: "instagram_url",
  twitter_url: "twitter_url",
  facebook_url: "facebook_url",
  terms_en: "terms_en",
  terms_ar: "terms_ar",
} as const;

async function defaultUnitId(db: DB, merchantId: number) {
  return (await unitOf(db, merchantId).select("id").executeTakeFirstOrThrow()).id;
}

/** The merchant's profile with its default unit's branding (what customers see on its pages). */
export async function loadMerchantProfile(db: DB, merchantId: number): Promise<MerchantProfile> {
  const merchant = await db
    .selectFrom("merchants")
    .select(MERCHANT_COLUMNS)
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
  const unit = await db
    .selectFrom("units")
    .select([
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
    ])
    .where("id", "=", await defaultUnitId(db, merchantId))
    .executeTakeFirstOrThrow();
  return {
    ...merchant,
    unit_title_en: unit.title_en,
    unit_title_ar: unit.title_ar,
    header_color: unit.header_color,
    show_unit_title: Boolean(unit.show_unit_title),
    unit_website: unit.website,
    instagram_url: unit.instagram_url,
    twitter_url: unit.twitter_url,
    facebook_url: unit.facebook_url,
    terms_en: unit.terms_en,
    terms_ar: unit.terms_ar,
  };
}

/**
 * Changes the profile: only the fields given, and of those only the ones that differ. One audit
 * entry names what changed (never the values: a profile holds contact details), written in the
 * same database transaction. Answers the fields that changed.
 */
export async function updateMerchantProfile(
  db: DB,
  input: {
    merchantId: number;
    actor: { id: number; username: string };
    changes: MerchantProfileChanges;
    ip?: string | null;
  },
): Promise<MerchantProfileField[]> {
  return writeTransaction(db, async (trx) => {
    // Two edits at once are taken one at a time, so each audit entry names what it changed.
    await lockMerchant(trx, input.merchantId);
    const current = await loadMerchantProfile(trx, input.merchantId);
    const changed = PROFILE_FIELDS.filter(
      (field) => input.changes[field] !== undefined && input.changes[field] !== current[field],
    );
    if (changed.length === 0) return [];
    const merchantValues: Record<string, string | null> = {};
    const unitValues: Record<string, string | number | null> = {};
    for (const field of changed) {
      const value = input.changes[field]!;
      if ((MERCHANT_COLUMNS as readonly string[]).includes(field)) merchantValues[field] = value as string | null;
      else
        unitValues[UNIT_COLUMNS[field as keyof typeof UNIT_COLUMNS]] =
          typeof value === "boolean" ? (value ? 1 : 0) : value;
    }
    if (merchantValues.title_en) merchantValues.title = merchantValues.title_en;
    if (Object.keys(merchantValues).length)
      await trx.updateTable("merchants").set(merchantValues).where("id", "=", input.merchantId).execute();
    if (Object.keys(unitValues).length)
      await trx
        .updateTable("units")
        .set(unitValues)
        .where("id", "=", await defaultUnitId(trx, input.merchantId))
        .execute();
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "merchant_profile_changed",
      params: { fields: list(changed.map((field) => word(`admin.profile.fields.${field}`))) },
      objectType: "merchant",
      objectId: input.merchantId,
      ip: input.ip ?? null,
    });
    return changed;
  });
}
