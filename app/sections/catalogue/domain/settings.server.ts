import type { DB } from "~/db/database.server";

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
  banner: { image: string | null; title_en: string; title_ar: string; subtitle_en: string; subtitle_ar: string; link: string | null };
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
  const row = await db.selectFrom("catalogue_settings").select("data").where("merchant_id", "=", merchantId).executeTakeFirst();
  return parseCatalogueSettings(row?.data);
}
