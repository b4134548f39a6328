import type { DB } from "~/db/database.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { toDecimalString } from "~/lib/money";
import { describe } from "~/presentation/texts.server";
import { apiDetail, apiJson, apiLanguage } from "~/web/api.server";
import type { Problems } from "../../domain/pricing.server";
import {
  defaultShopMerchant,
  isAvailable,
  loadShop,
  productImageUrl,
  unitPriceOf,
  type PublicProduct,
  type Shop,
} from "../../domain/shop.server";

/** The caller's language: `?lang=` when given, else Accept-Language. */
export function publicApiLanguage(request: Request): Language {
  const asked = new URL(request.url).searchParams.get("lang");
  return isLanguage(asked) ? asked : apiLanguage(request);
}

const idOf = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value > 0
    ? value
    : typeof value === "string" && /^\d{1,10}$/.test(value.trim()) && Number(value) > 0
      ? Number(value)
      : undefined;

/**
 * The shop `?merchant=` (or the body's `merchant`) names, else the installation's first with the
 * catalogue section; the API's 404 when that merchant has no shop.
 */
export async function requireShop(db: DB, request: Request, body?: Record<string, unknown>): Promise<Shop> {
  const asked =
    new URL(request.url).searchParams.get("merchant") ??
    (body?.merchant === undefined || body.merchant === null ? null : String(body.merchant));
  const merchantId = asked !== null ? idOf(asked) : await defaultShopMerchant(db);
  const shop = merchantId == null ? undefined : await loadShop(db, merchantId);
  if (!shop) throw apiDetail(request, "catalogue_public.errors.shop_not_found", 404);
  return shop;
}

/** 429 {"detail"} in the caller's language (`?lang=` or Accept-Language): the address tried too often. */
export function tooMany(
  request: Request,
  key: "catalogue_public.errors.throttled" | "catalogue_public.errors.discount_throttled",
) {
  return apiJson({ detail: describe(key, undefined, publicApiLanguage(request)) }, 429);
}

export function notFound(request: Request): never {
  throw apiDetail(request, "catalogue_public.errors.not_found", 404);
}

/** A product as the public API answers it (prices as decimal strings of the shop's currency). */
export function serializeProduct(product: PublicProduct, shop: Shop, lang: Language) {
  const money = (minor: number) => toDecimalString(minor, shop.currency);
  const images = product.images.map(productImageUrl);
  return {
    id: product.id,
    slug: product.slug,
    sku: product.sku,
    name: lang === "ar" ? product.name_ar || product.name_en : product.name_en || product.name_ar,
    name_en: product.name_en,
    name_ar: product.name_ar,
    description_en: product.description_en,
    description_ar: product.description_ar,
    price: money(product.price),
    discounted_price: product.discounted_price === null ? null : money(product.discounted_price),
    unit_price: money(unitPriceOf(product)),
    inventory: product.inventory,
    is_available: isAvailable(product),
    currency_code: shop.currency,
    image: images[0] ?? null,
    images,
  };
}

type Nested = Record<string, string[]>;

/**
 * Problems in DRF's nested shape, each message in the caller's language: `items.1.quantity`
 * becomes {"items": [{}, {"quantity": ["Only 3 left."]}]}; a message on the items as a whole goes
 * under non_field_errors when lines have their own.
 */
export function nestedProblems(problems: Problems, lang: Language): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const items: Nested[] = [];
  const general: string[] = [];
  for (const [key, problem] of Object.entries(problems)) {
    const message = describe(problem.code, problem.params, lang);
    const line = /^items\.(\d+)\.(\w+)$/.exec(key);
    if (line) {
      const index = Number(line[1]);
      while (items.length <= index) items.push({});
      items[index][line[2]] = [message];
    } else if (key === "items") general.push(message);
    else body[key] = [message];
  }
  if (items.length) {
    body.items = items;
    if (general.length) body.non_field_errors = [...((body.non_field_errors as string[]) ?? []), ...general];
  } else if (general.length) body.items = general;
  return body;
}

/** `product_slugs` joined by commas (public spec §7), at most 50. */
export function slugsOf(request: Request) {
  const joined = new URL(request.url).searchParams.get("product_slugs") ?? "";
  return [
    ...new Set(
      joined
        .split(",")
        .map((slug) => slug.trim())
        .filter(Boolean),
    ),
  ].slice(0, 50);
}
