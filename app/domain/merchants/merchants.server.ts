import type { DB } from "~/db/database.server";
import { nowIso } from "~/lib/clock.server";
import { isCountry, type CountryCode } from "~/lib/countries";
import { isSupportedCurrency, type SupportedCurrency } from "~/lib/money";

/** A section a merchant has, with the features of it they have (dashboard spec §6). */
export type MerchantSection = { key: string; features: readonly string[] };

/** What a merchant has: section key → enabled feature keys. */
export type AvailableSections = Record<string, string[]>;

export function hasFeature(available: AvailableSections, section: string, feature?: string) {
  const features = available[section];
  if (!features) return false;
  return feature === undefined || features.includes(feature);
}

/** A merchant with its default unit and the sections (and their features) it has. */
export async function createMerchant(
  db: DB,
  input: {
    name: string;
    titleEn: string;
    titleAr: string;
    operationsApproval?: boolean;
    sections: readonly MerchantSection[];
    /** How customers reach the merchant (shown when a link can no longer be paid). */
    contact?: { email?: string | null; phone?: string | null };
    /** The demo store's logo and terms; a real merchant starts without them and sets its own. */
    demoBranding?: boolean;
  },
) {
  const created = nowIso();
  const demo = input.demoBranding ?? true;
  const merchant = await db
    .insertInto("merchants")
    .values({
      name: input.name,
      country_code: "KW",
      currency_code: "KWD",
      title: input.titleEn,
      title_en: input.titleEn,
      title_ar: input.titleAr,
      subheader: null,
      logo_url: demo ? "/brand/demo-logo.svg" : null,
      favicon_url: "/favicon.svg",
      admin_url: null,
      website_url: null,
      contact_email: input.contact?.email ?? null,
      contact_phone: input.contact?.phone ?? null,
      operations_approval: input.operationsApproval ? 1 : 0,
      created_at: created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("units")
    .values({
      merchant_id: merchant.id,
      name: input.name,
      title_en: input.titleEn,
      title_ar: input.titleAr,
      logo_url: demo ? "/brand/demo-logo.svg" : null,
      header_color: "#ffffff",
      is_default: 1,
      terms_en: demo
        ? "Payments are taken in Kuwaiti dinars. Orders are prepared once the payment is confirmed. Refunds are made to the card or account that paid, within 14 days of an accepted return."
        : null,
      terms_ar: demo
        ? "تُستوفى المدفوعات بالدينار الكويتي. تُجهَّز الطلبات بعد تأكيد الدفع. تُرد المبالغ إلى البطاقة أو الحساب الذي دفع خلال 14 يومًا من قبول الإرجاع."
        : null,
      created_at: created,
    })
    .execute();
  const features = input.sections.flatMap((section) => [
    { merchant_id: merchant.id, section: section.key, feature: "" },
    ...section.features.map((feature) => ({ merchant_id: merchant.id, section: section.key, feature })),
  ]);
  if (features.length) await db.insertInto("merchant_features").values(features).execute();
  const plugins = input.sections.map((section) => ({
    merchant_id: merchant.id,
    plugin: section.key,
    installed_at: created,
  }));
  if (plugins.length) await db.insertInto("merchant_plugins").values(plugins).execute();
  return merchant.id;
}

export type MerchantContact = { email: string | null; phone: string | null; website: string | null };

/**
 * How a customer reaches the merchant, for a link that can no longer be paid: the merchant's
 * e-mail and phone, and the unit's website (else the merchant's). Only what is set.
 */
export async function loadMerchantContact(
  db: DB,
  merchantId: number,
  unitWebsite: string | null,
): Promise<MerchantContact> {
  const merchant = await db
    .selectFrom("merchants")
    .select(["contact_email", "contact_phone", "website_url"])
    .where("id", "=", merchantId)
    .executeTakeFirst();
  return {
    email: merchant?.contact_email || null,
    phone: merchant?.contact_phone || null,
    website: safeWebsite(unitWebsite) ?? safeWebsite(merchant?.website_url ?? null),
  };
}

/** Only an http(s) address is offered as a link to customers. */
function safeWebsite(value: string | null) {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

export async function loadMerchantBranding(db: DB, merchantId: number) {
  return db
    .selectFrom("merchants")
    .select(["id", "title", "title_en", "title_ar", "subheader", "logo_url", "favicon_url", "admin_url", "website_url"])
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
}

/**
 * The merchant's default currency and country (Administration → Profile): what a payment request
 * naming no currency is in, and where a phone typed without its code belongs. KWD and Kuwait when
 * a stored value is not one the platform offers.
 */
export async function loadMerchantDefaults(
  db: DB,
  merchantId: number,
): Promise<{ currency: SupportedCurrency; country: CountryCode }> {
  const row = await db
    .selectFrom("merchants")
    .select(["currency_code", "country_code"])
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return {
    currency: isSupportedCurrency(row.currency_code) ? row.currency_code : "KWD",
    country: isCountry(row.country_code) ? row.country_code : "KW",
  };
}

export async function loadAvailableSections(db: DB, merchantId: number): Promise<AvailableSections> {
  const rows = await db
    .selectFrom("merchant_features")
    .select(["section", "feature"])
    .where("merchant_id", "=", merchantId)
    .execute();
  const available: AvailableSections = {};
  for (const row of rows) {
    available[row.section] ??= [];
    if (row.feature) available[row.section].push(row.feature);
  }
  return available;
}
