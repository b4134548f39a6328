import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { listProducts } from "../../domain/shop.server";
import { loadVisitor, productCard, shopMoney, shopQuery, unitHeader } from "./shop-page.server";

/** Products a page of the list shows. */
export const PAGE_SIZE = 12;

export type ListPageData = Awaited<ReturnType<typeof listPageView>>;

const pageOf = (value: string | null) => (value && /^\d{1,5}$/.test(value) && Number(value) >= 1 ? Number(value) : 1);
const imageUrl = (path: string | null) => (path && (/^https:\/\//.test(path) || path.startsWith("/")) ? path : null);
const linkUrl = (link: string | null) => (link && /^https?:\/\//.test(link) ? link : null);

/**
 * What the product list shows, for its loader and for its direct handler (section.server.ts
 * `directPages`): the banner when the shop shows it, a search, one page of products, the cart's count.
 * A few indexed reads: the cart, the shop, one page of products with their count, their first images, the header.
 */
export async function listPageView(db: DB, url: URL, cookieHeader: string | null, lang: Language) {
  const visitor = await loadVisitor(db, url, cookieHeader);
  const { shop, cart } = visitor;
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = pageOf(url.searchParams.get("page"));
  const [unit, listed] = await Promise.all([
    unitHeader(db, shop.merchantId, lang),
    listProducts(db, shop.merchantId, { search, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
  ]);
  const money = shopMoney(shop, lang);
  const banner = shop.settings.banner;
  const title = lang === "ar" ? banner.title_ar || banner.title_en : banner.title_en || banner.title_ar;
  const subtitle = lang === "ar" ? banner.subtitle_ar || banner.subtitle_en : banner.subtitle_en || banner.subtitle_ar;
  const showBanner = shop.settings.show_banner && (imageUrl(banner.image) !== null || title !== "");
  const pages = Math.max(1, Math.ceil(listed.count / PAGE_SIZE));
  const base = `/${lang}/catalogue/product-list${shopQuery(shop)}${search ? `&q=${encodeURIComponent(search)}` : ""}`;
  return {
    lang,
    unit,
    query: shopQuery(shop),
    merchantId: shop.merchantId,
    cartCount: cart.lines.reduce((sum, line) => sum + line.quantity, 0),
    banner: showBanner ? { image: imageUrl(banner.image), title, subtitle, link: linkUrl(banner.link) } : null,
    search,
    count: listed.count,
    page,
    pages,
    previous: page > 1 ? `${base}&page=${page - 1}` : null,
    next: page < pages ? `${base}&page=${page + 1}` : null,
    products: listed.products.map((product) => productCard(product, lang, money)),
  };
}
