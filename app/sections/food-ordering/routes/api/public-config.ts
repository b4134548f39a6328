import type { Route } from "./+types/public-config";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { unitOf } from "~/domain/merchants/units.server";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { foodOrderingInstalled, listItems, loadFoodSettings } from "../../domain/public-menu.server";
import { requireMerchant, serializeItem } from "./public-api.server";

/**
 * The menu page's settings, for anyone (`?merchant=`): GET header-config (the unit's branding and the
 * header's own settings), GET menu-page-config, GET banners, GET promoted-items,
 * GET test-if-food-ordering-installed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method !== "GET") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const path = new URL(request.url).pathname;
  const merchantId = await requireMerchant(db, request);
  if (path.endsWith("/test-if-food-ordering-installed")) {
    const { installed, hasBranches } = await foodOrderingInstalled(db, merchantId);
    return apiJson({ installed, has_branches: hasBranches });
  }
  if (path.endsWith("/promoted-items")) {
    const [items, { currency }] = await Promise.all([
      listItems(db, merchantId, { promoted: true }),
      loadMerchantDefaults(db, merchantId),
    ]);
    return apiJson(items.map((item) => serializeItem(item, currency)));
  }
  const settings = await loadFoodSettings(db, merchantId);
  if (path.endsWith("/banners")) return apiJson(settings.banners);
  if (path.endsWith("/menu-page-config")) return apiJson(settings.menu_page_config);
  const unit = await unitOf(db, merchantId)
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
  return apiJson({
    unit_details: unit ? { ...unit, show_unit_title: Boolean(unit.show_unit_title) } : null,
    header_configs: settings.header_config,
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
