import type { Route } from "./+types/public-config";
import { unitOf } from "~/domain/merchants/units.server";
import { exponentOf } from "~/lib/money";
import { describe } from "~/presentation/texts.server";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findProduct, productsBySlug, storesCarrying } from "../../domain/shop.server";
import { notFound, publicApiLanguage, requireShop, slugsOf } from "./public-api.server";

/**
 * The shop's settings, for anyone (`?merchant=`): GET config (public spec §3 catalogue config:
 * currency, showBanner, label_store, decimal_places, terms), GET banner, GET stores (those carrying
 * every product of `product_slugs`), GET product/unit_config/{slug} (the header of the product's unit).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (request.method !== "GET") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const path = new URL(request.url).pathname.replace(/\/$/, "");
  const shop = await requireShop(db, request);
  const settings = shop.settings;
  if (path.endsWith("/banner")) {
    const { banner } = settings;
    return apiJson({
      show_banner: settings.show_banner,
      image: banner.image,
      title: lang === "ar" ? banner.title_ar || banner.title_en : banner.title_en || banner.title_ar,
      subtitle: lang === "ar" ? banner.subtitle_ar || banner.subtitle_en : banner.subtitle_en || banner.subtitle_ar,
      title_en: banner.title_en,
      title_ar: banner.title_ar,
      subtitle_en: banner.subtitle_en,
      subtitle_ar: banner.subtitle_ar,
      link: banner.link,
    });
  }
  if (path.endsWith("/stores")) {
    const slugs = slugsOf(request);
    const products = await productsBySlug(db, shop.merchantId, slugs);
    const unknown = slugs.filter((slug) => !products.has(slug));
    if (unknown.length)
      return apiJson(
        { product_slugs: [describe("catalogue_public.errors.unknown_products", { slugs: unknown.join(", ") }, lang)] },
        400,
      );
    const stores = await storesCarrying(
      db,
      shop.merchantId,
      [...products.values()].map((product) => product.id),
    );
    return apiJson(
      stores.map((store) => ({
        id: store.id,
        name: lang === "ar" ? store.name_ar : store.name_en,
        name_en: store.name_en,
        name_ar: store.name_ar,
        address_en: store.address_en,
        address_ar: store.address_ar,
        phone: store.phone,
      })),
    );
  }
  if (params.slug !== undefined) {
    const product = await findProduct(db, shop.merchantId, params.slug);
    if (!product) notFound(request);
    const unit = await unitOf(db, shop.merchantId, product.unit_id)
      .select([
        "logo_url",
        "title_en",
        "title_ar",
        "website",
        "twitter_url",
        "instagram_url",
        "facebook_url",
        "show_unit_title",
        "header_color",
      ])
      .executeTakeFirst();
    return apiJson({ unit_details: unit ? { ...unit, show_unit_title: Boolean(unit.show_unit_title) } : null });
  }
  return apiJson({
    currency: shop.currency,
    showBanner: settings.show_banner,
    label_store:
      (lang === "ar"
        ? settings.label_store_ar || settings.label_store_en
        : settings.label_store_en || settings.label_store_ar) || null,
    label_store_en: settings.label_store_en,
    label_store_ar: settings.label_store_ar,
    decimal_places: settings.decimal_places ?? exponentOf(shop.currency),
    terms: (lang === "ar" ? settings.terms_ar || settings.terms_en : settings.terms_en || settings.terms_ar) || null,
    terms_en: settings.terms_en,
    terms_ar: settings.terms_ar,
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
