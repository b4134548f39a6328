import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import { exponentOf } from "~/lib/money";
import { addError, type FieldErrors } from "./fields";
import { DISCOUNTS } from "./pricing.server";
import type { CatalogueSettingsInput } from "./settings-schema";

/**
 * The shop's configuration held in catalogue_settings.data (JSON): public spec §3 catalogue config
 * (currency, showBanner, label_store, decimal_places, terms) and the banner. The merchant's staff
 * write it from the dashboard; the public shop and its API read it.
 */
export type CatalogueSettings = {
  /** The shop's currency; null: the merchant's default currency. */
  currency: string | null;
  show_banner: boolean;
  /** What the store choice is called at checkout ("Pick-up store"); empty: the default words. */
  label_store_en: string;
  label_store_ar: string;
  /** Decimals shown for prices; null: the currency's own (3 for KWD). */
  decimal_places: number | null;
  terms_en: string;
  terms_ar: string;
  banner: {
    image: string | null;
    title_en: string;
    title_ar: string;
    subtitle_en: string;
    subtitle_ar: string;
    link: string | null;
  };
};

export const DEFAULT_CATALOGUE_SETTINGS: CatalogueSettings = {
  currency: null,
  show_banner: false,
  label_store_en: "",
  label_store_ar: "",
  decimal_places: null,
  terms_en: "",
  terms_ar: "",
  banner: { image: null, title_en: "", title_ar: "", subtitle_en: "", subtitle_ar: "", link: null },
};

const str = (value: unknown) => (typeof value === "string" ? value : "");
const strOrNull = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/** Reads a stored JSON text into settings, with the defaults for what was never set or has the wrong shape. */
export function parseCatalogueSettings(text: string | null | undefined): CatalogueSettings {
  let data: Record<string, any> = {};
  try {
    const parsed = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed;
  } catch {}
  const banner = data.banner && typeof data.banner === "object" ? data.banner : {};
  const places = data.decimal_places;
  return {
    currency: typeof data.currency === "string" && /^[A-Z]{3}$/.test(data.currency) ? data.currency : null,
    show_banner: data.show_banner === true,
    label_store_en: str(data.label_store_en),
    label_store_ar: str(data.label_store_ar),
    decimal_places: Number.isInteger(places) && places >= 0 && places <= 3 ? places : null,
    terms_en: str(data.terms_en),
    terms_ar: str(data.terms_ar),
    banner: {
      image: strOrNull(banner.image),
      title_en: str(banner.title_en),
      title_ar: str(banner.title_ar),
      subtitle_en: str(banner.subtitle_en),
      subtitle_ar: str(banner.subtitle_ar),
      link: strOrNull(banner.link),
    },
  };
}

/** The merchant's shop settings, with the defaults for what was never set. */
export async function loadCatalogueSettings(db: DB, merchantId: number): Promise<CatalogueSettings> {
  const row = await db
    .selectFrom("catalogue_settings")
    .select("data")
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return parseCatalogueSettings(row?.data);
}

/**
 * Saves the shop's configuration. Prices are minor units of the shop's currency, so a currency with
 * another number of decimals is refused while products or fixed discounts carry amounts; and fewer
 * decimals shown are refused while a price has more, so the shop never shows a price other than the
 * one charged. `bannerImage` is the banner picture's public address when a new one was uploaded.
 */
export async function saveCatalogueSettings(
  db: DB,
  change: {
    merchantId: number;
    actor: { id: number; username: string };
    input: CatalogueSettingsInput;
    currencies: readonly string[];
    defaultCurrency: string;
    bannerImage?: string;
    ip?: string | null;
  },
): Promise<{ ok: true; value: CatalogueSettings } | { ok: false; errors: FieldErrors }> {
  // Under the merchant's lock, in the transaction that writes: a product or discount saved meanwhile
  // (they take the lock too) is either seen by the decimals check or checked against the new settings.
  return writeTransaction(db, async (trx) => {
    await lockMerchant(trx, change.merchantId);
    return saveSettingsLocked(trx, change);
  });
}

async function saveSettingsLocked(
  trx: DB,
  change: {
    merchantId: number;
    actor: { id: number; username: string };
    input: CatalogueSettingsInput;
    currencies: readonly string[];
    defaultCurrency: string;
    bannerImage?: string;
    ip?: string | null;
  },
): Promise<{ ok: true; value: CatalogueSettings } | { ok: false; errors: FieldErrors }> {
  const input = change.input;
  const errors: FieldErrors = {};
  const before = await loadCatalogueSettings(trx, change.merchantId);
  const currency = input.currency ?? before.currency ?? change.defaultCurrency;
  if (!change.currencies.includes(currency)) addError(errors, "currency", "catalogue_admin.errors.currency");
  const places = input.decimal_places === undefined ? before.decimal_places : input.decimal_places;
  if (places !== null && places > exponentOf(currency))
    addError(errors, "decimal_places", "catalogue_admin.errors.places_above_currency", {
      places: exponentOf(currency),
    });
  if (Object.keys(errors).length) return { ok: false, errors };

  const oldCurrency = before.currency ?? change.defaultCurrency;
  const amounts = async () => {
    const products = await trx
      .selectFrom("catalogue_products")
      .select(["price", "discounted_price"])
      .where("merchant_id", "=", change.merchantId)
      .execute();
    const discounts = await trx
      .selectFrom("offer_codes")
      .select(["discount_type", "amount", "min_total"])
      .where("merchant_id", "=", change.merchantId)
      .where("section", "=", DISCOUNTS.section)
      .execute();
    return [
      ...products.flatMap((row) => [
        Number(row.price),
        row.discounted_price === null ? 0 : Number(row.discounted_price),
      ]),
      ...discounts.flatMap((row) => [row.discount_type === "fixed" ? Number(row.amount) : 0, Number(row.min_total)]),
    ].filter((value) => value !== 0);
  };
  if (exponentOf(currency) !== exponentOf(oldCurrency) && (await amounts()).length) {
    addError(errors, "currency", "catalogue_admin.errors.currency_decimals", { currency: oldCurrency });
    return { ok: false, errors };
  }
  const step = 10 ** (exponentOf(currency) - (places ?? exponentOf(currency)));
  if (step > 1 && (await amounts()).some((value) => value % step !== 0)) {
    addError(errors, "decimal_places", "catalogue_admin.errors.places_prices");
    return { ok: false, errors };
  }

  const keep = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
  const settings: CatalogueSettings = {
    currency: input.currency ?? before.currency,
    show_banner: keep(input.show_banner, before.show_banner),
    label_store_en: keep(input.label_store_en, before.label_store_en),
    label_store_ar: keep(input.label_store_ar, before.label_store_ar),
    decimal_places: places,
    terms_en: keep(input.terms_en, before.terms_en),
    terms_ar: keep(input.terms_ar, before.terms_ar),
    banner: {
      image: change.bannerImage ?? (input.remove_banner_image ? null : before.banner.image),
      title_en: keep(input.banner_title_en, before.banner.title_en),
      title_ar: keep(input.banner_title_ar, before.banner.title_ar),
      subtitle_en: keep(input.banner_subtitle_en, before.banner.subtitle_en),
      subtitle_ar: keep(input.banner_subtitle_ar, before.banner.subtitle_ar),
      link: input.banner_link === undefined ? before.banner.link : input.banner_link || null,
    },
  };
  const data = JSON.stringify(settings);
  const at = nowIso();
  await trx
    .insertInto("catalogue_settings")
    .values({ merchant_id: change.merchantId, data, updated_at: at })
    .onConflict((conflict) => conflict.column("merchant_id").doUpdateSet({ data, updated_at: at }))
    .execute();
  await recordAudit(trx, {
    merchantId: change.merchantId,
    actor: change.actor,
    action: "catalogue_settings_updated",
    objectType: "catalogue_settings",
    objectId: change.merchantId,
    ip: change.ip,
  });
  return { ok: true, value: settings };
}
