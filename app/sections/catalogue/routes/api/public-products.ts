import type { Route } from "./+types/public-products";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { findProduct, listProducts } from "../../domain/shop.server";
import { notFound, publicApiLanguage, requireShop, serializeProduct } from "./public-api.server";

/** Public spec §9: 50 a page by default, through limit and offset. */
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const numberOf = (value: string | null, fallback: number, max: number) =>
  value && /^\d{1,6}$/.test(value) ? Math.min(max, Number(value)) : fallback;

/**
 * GET product (`search`, `limit`, `offset`, `?merchant=`): the shop's active products, DRF-paged
 * {"count", "next", "previous", "results"}; GET product/{slug}: one product with all its images.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (request.method !== "GET") return methodNotAllowed(request);
  const db = getDbFrom(context);
  const lang = publicApiLanguage(request);
  const shop = await requireShop(db, request);
  if (params.slug !== undefined) {
    const product = await findProduct(db, shop.merchantId, params.slug);
    if (!product) notFound(request);
    return apiJson(serializeProduct(product, shop, lang));
  }
  const url = new URL(request.url);
  const limit = Math.max(1, numberOf(url.searchParams.get("limit"), DEFAULT_LIMIT, MAX_LIMIT));
  const offset = numberOf(url.searchParams.get("offset"), 0, 1_000_000);
  const search = url.searchParams.get("search") ?? url.searchParams.get("q") ?? "";
  const { count, products } = await listProducts(db, shop.merchantId, { search, limit, offset, allImages: true });
  const page = (at: number) => {
    const next = new URL(url);
    next.searchParams.set("limit", String(limit));
    next.searchParams.set("offset", String(at));
    return next.toString();
  };
  return apiJson({
    count,
    next: offset + limit < count ? page(offset + limit) : null,
    previous: offset > 0 ? page(Math.max(0, offset - limit)) : null,
    results: products.map((product) => serializeProduct(product, shop, lang)),
  });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
