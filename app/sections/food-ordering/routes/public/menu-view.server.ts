import type { DB } from "~/db/database.server";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import type { Language } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { cartSummary, type Location } from "../../domain/cart.server";
import {
  listAreas,
  listBranches,
  listCategories,
  listItems,
  loadFoodSettings,
  nameIn,
} from "../../domain/public-menu.server";
import { loadVisitor, positiveId, unitHeader } from "./food-page.server";
import { imageUrl } from "./food-view.server";

const TYPES = ["delivery", "pickup", "catering"] as const;

/** A delivery type, branch and area asked for in a query string or a form. */
export function locationFrom(values: URLSearchParams | FormData): Location | null {
  const type = String(values.get("delivery_type") ?? "");
  if (!TYPES.includes(type as never)) return null;
  return {
    delivery_type: type as Location["delivery_type"],
    branch: positiveId(String(values.get("branch") ?? "")) ?? null,
    delivery_area: positiveId(String(values.get("delivery_area") ?? "")) ?? null,
  };
}

export type MenuPageData = Awaited<ReturnType<typeof menuPageView>>;

/**
 * What the menu page shows, for its loader and for its direct handler (section.server.ts
 * `directPages`: the busiest customer page is rendered without the router, decision 0011).
 */
export async function menuPageView(db: DB, request: Request, lang: Language) {
  const visitor = await loadVisitor(db, request);
  const { cart, merchantId } = visitor;
  const url = new URL(request.url);
  const pending = url.searchParams.get("confirm") === "1" ? locationFrom(url.searchParams) : null;
  const [unit, settings, categories, items, branches, summary, { currency }] = await Promise.all([
    unitHeader(db, merchantId, lang),
    loadFoodSettings(db, merchantId),
    listCategories(db, merchantId),
    // The menu shows names and prices (a size's lowest): the dishes' add-ons and options are read on their own pages.
    listItems(db, merchantId, { listing: true }),
    listBranches(db, merchantId),
    cartSummary(db, cart),
    loadMerchantDefaults(db, merchantId),
  ]);
  const areas = cart.branch !== null && cart.delivery_type === "delivery" ? await listAreas(db, cart.branch) : [];
  const money = (minor: number) => formatAmount(minor, currency, lang);
  const itemView = (item: (typeof items)[number]) => ({
    id: item.id,
    categoryId: item.category_id,
    name: nameIn(item, lang),
    description: lang === "ar" ? item.description_ar : item.description_en,
    image: imageUrl(item.image_path),
    price: money(item.sizes.length ? Math.min(...item.sizes.map((size) => size.price)) : item.unit_price),
    fromPrice: item.sizes.length > 0,
    original:
      item.discounted_price !== null && item.discounted_price < item.price && !item.sizes.length
        ? money(item.price)
        : null,
    soldOut: item.sold_out,
  });
  const banners = settings.banners.flatMap((banner) => {
    const entry = banner as Record<string, unknown>;
    const image = imageUrl(
      typeof entry?.image === "string" ? entry.image : typeof entry?.image_url === "string" ? entry.image_url : null,
    );
    return image
      ? [{ image, link: typeof entry.link === "string" && /^https?:\/\//.test(entry.link) ? entry.link : null }]
      : [];
  });
  const config = settings.menu_page_config;
  const title = typeof config[`title_${lang}`] === "string" ? String(config[`title_${lang}`]) : null;
  return {
    lang,
    unit,
    merchantId,
    title,
    banners,
    promoted: items.filter((item) => item.is_promoted).map(itemView),
    categories: categories
      .map((category) => ({
        id: category.id,
        name: nameIn(category, lang),
        isCatering: Boolean(category.is_catering),
        items: items.filter((item) => item.category_id === category.id).map(itemView),
      }))
      .filter((category) => category.items.length > 0),
    location: { deliveryType: cart.delivery_type, branch: cart.branch, area: cart.delivery_area },
    branches: branches.map((branch) => ({ value: String(branch.id), label: nameIn(branch, lang) })),
    areas: areas.map((area) => ({ value: String(area.id), label: lang === "ar" ? area.name_ar : area.name_en })),
    branchName: branches.find((branch) => branch.id === cart.branch)
      ? nameIn(
          branches.find((branch) => branch.id === cart.branch)!,
          lang,
        )
      : null,
    cart: { count: summary.count, total: money(summary.total) },
    pending: pending
      ? { deliveryType: pending.delivery_type, branch: pending.branch, area: pending.delivery_area }
      : null,
  };
}
