import { sql } from "kysely";
import type { DB } from "~/db/database.server";
import { isSupportedCurrency } from "~/lib/money";
import { parseCatalogueSettings, type CatalogueSettings } from "./settings.server";

/*
 * What customers read of a merchant's shop: the shop itself (only when the merchant has the
 * catalogue section), its active products with their images, and its stores. Every reader names the
 * merchant; nothing here is a price a customer sent.
 */

export type Shop = { merchantId: number; currency: string; country: string; settings: CatalogueSettings };

/**
 * The merchant's shop in one read: its currency (the shop's own, else the merchant's), its country
 * and its settings; undefined when the merchant does not have the catalogue section or is paused
 * (not active): a paused merchant's shop shows nothing and takes no checkout.
 */
export async function loadShop(db: DB, merchantId: number): Promise<Shop | undefined> {
  const row = await db
    .selectFrom("merchants")
    .innerJoin("merchant_plugins", (join) =>
      join.onRef("merchant_plugins.merchant_id", "=", "merchants.id").on("merchant_plugins.plugin", "=", "catalogue"),
    )
    .leftJoin("catalogue_settings", "catalogue_settings.merchant_id", "merchants.id")
    .select(["merchants.id", "merchants.currency_code", "merchants.country_code", "catalogue_settings.data"])
    .where("merchants.id", "=", merchantId)
    .where("merchants.is_active", "=", 1)
    .executeTakeFirst();
  if (!row) return undefined;
  const settings = parseCatalogueSettings(row.data);
  const own = settings.currency && isSupportedCurrency(settings.currency) ? settings.currency : null;
  return {
    merchantId: row.id,
    currency: own ?? (isSupportedCurrency(row.currency_code) ? row.currency_code : "KWD"),
    country: row.country_code || "KW",
    settings,
  };
}

/** The installation's first active merchant with the catalogue section (the shop's pages when none is named). */
export async function defaultShopMerchant(db: DB): Promise<number | null> {
  const row = await db
    .selectFrom("merchant_plugins")
    .innerJoin("merchants", "merchants.id", "merchant_plugins.merchant_id")
    .select((eb) => eb.fn.min("merchant_plugins.merchant_id").as("merchant_id"))
    .where("merchant_plugins.plugin", "=", "catalogue")
    .where("merchants.is_active", "=", 1)
    .executeTakeFirst();
  return row?.merchant_id == null ? null : Number(row.merchant_id);
}

const PRODUCT_COLUMNS = [
  "id",
  "merchant_id",
  "unit_id",
  "slug",
  "sku",
  "name_en",
  "name_ar",
  "description_en",
  "description_ar",
  "price",
  "discounted_price",
  "inventory",
] as const;

export type ProductRow = {
  id: number;
  merchant_id: number;
  unit_id: number | null;
  slug: string;
  sku: string | null;
  name_en: string;
  name_ar: string;
  description_en: string;
  description_ar: string;
  price: number;
  discounted_price: number | null;
  inventory: number | null;
};

export type PublicProduct = ProductRow & { images: number[] };

/** What one unit sells for now: its discounted price when it has one. */
export const unitPriceOf = (product: Pick<ProductRow, "price" | "discounted_price">) =>
  product.discounted_price ?? product.price;

/** Whether customers may add it to a cart (public spec §5): inventory above 0, or unlimited. */
export const isAvailable = (product: Pick<ProductRow, "inventory">) =>
  product.inventory === null || product.inventory > 0;

export const nameIn = (row: { name_en: string; name_ar: string }, lang: "en" | "ar") =>
  lang === "ar" ? row.name_ar || row.name_en : row.name_en || row.name_ar;

/** The address of a product image, served by the catalogue's image route. */
export const productImageUrl = (imageId: number) => `/api/v1/plugins/catalogue/product-image/${imageId}`;

async function withImages<T extends { id: number }>(
  db: DB,
  products: T[],
  firstOnly = false,
): Promise<(T & { images: number[] })[]> {
  if (products.length === 0) return [];
  const rows = await db
    .selectFrom("catalogue_product_images")
    .select(["id", "product_id"])
    .where(
      "product_id",
      "in",
      products.map((product) => product.id),
    )
    .orderBy("product_id")
    .orderBy("position")
    .orderBy("id")
    .execute();
  const byProduct = new Map<number, number[]>();
  for (const row of rows) {
    const list = byProduct.get(row.product_id) ?? [];
    if (!firstOnly || list.length === 0) list.push(row.id);
    byProduct.set(row.product_id, list);
  }
  return products.map((product) => ({ ...product, images: byProduct.get(product.id) ?? [] }));
}

/** Characters LIKE would read as wildcards, escaped so a search matches them as typed. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * One page of the shop's active products in the merchant's order, with the first image of each and
 * how many match in all (one read with a window count, one for the images). `search` matches the
 * name in either language and the SKU, whatever the case.
 */
export async function listProducts(
  db: DB,
  merchantId: number,
  input: { search?: string; limit: number; offset: number; allImages?: boolean },
): Promise<{ count: number; products: PublicProduct[] }> {
  let query = db
    .selectFrom("catalogue_products")
    .select(PRODUCT_COLUMNS)
    .select(sql<number>`count(*) over ()`.as("total"))
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1);
  const search = input.search?.trim().slice(0, 100);
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name_en)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(name_ar)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(coalesce(sku, ''))`, "like", sql`${pattern} escape '\\'`),
      ]),
    );
  }
  // The list's first image of each product comes in the same read (a correlated subquery on the images' index).
  const rows = await query
    .select((eb) =>
      eb
        .selectFrom("catalogue_product_images")
        .select("catalogue_product_images.id")
        .whereRef("catalogue_product_images.product_id", "=", "catalogue_products.id")
        .orderBy("catalogue_product_images.position")
        .orderBy("catalogue_product_images.id")
        .limit(1)
        .as("first_image"),
    )
    .orderBy("position")
    .orderBy("id")
    .limit(input.limit)
    .offset(input.offset)
    .execute();
  let count = rows.length ? Number(rows[0].total) : 0;
  if (rows.length === 0 && input.offset > 0) {
    // Past the last page: the count still says how many there are.
    const counted = await listProducts(db, merchantId, { ...input, offset: 0, limit: 1 });
    count = counted.count;
  }
  if (input.allImages)
    return {
      count,
      products: await withImages(
        db,
        rows.map(({ total: _total, first_image: _first, ...product }) => product as ProductRow),
        false,
      ),
    };
  return {
    count,
    products: rows.map(({ total: _total, first_image: first, ...product }) => ({
      ...(product as ProductRow),
      images: first == null ? [] : [Number(first)],
    })),
  };
}

/** One active product of the merchant by its slug, with all its images. */
export async function findProduct(db: DB, merchantId: number, slug: string): Promise<PublicProduct | undefined> {
  if (!slug || slug.length > 200) return undefined;
  const row = await db
    .selectFrom("catalogue_products")
    .select(PRODUCT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("slug", "=", slug)
    .where("is_active", "=", 1)
    .executeTakeFirst();
  if (!row) return undefined;
  const [product] = await withImages(db, [row as ProductRow], false);
  return product;
}

/** The merchant's active products of these slugs, by slug (unknown or inactive ones are absent). */
export async function productsBySlug(
  db: DB,
  merchantId: number,
  slugs: readonly string[],
): Promise<Map<string, ProductRow>> {
  const wanted = [...new Set(slugs.filter((slug) => slug && slug.length <= 200))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom("catalogue_products")
    .select(PRODUCT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("slug", "in", wanted)
    .where("is_active", "=", 1)
    .execute();
  return new Map(rows.map((row) => [row.slug, row as ProductRow]));
}

export type PublicStore = {
  id: number;
  name_en: string;
  name_ar: string;
  address_en: string;
  address_ar: string;
  phone: string | null;
};

/**
 * The merchant's active stores that carry every one of these products (a store that carries all
 * carries them; any other only those it chose), in the merchant's order.
 */
export async function storesCarrying(
  db: DB,
  merchantId: number,
  productIds: readonly number[],
): Promise<PublicStore[]> {
  const stores = await db
    .selectFrom("catalogue_stores")
    .select(["id", "name_en", "name_ar", "address_en", "address_ar", "phone", "carries_all"])
    .where("merchant_id", "=", merchantId)
    .where("is_active", "=", 1)
    .orderBy("position")
    .orderBy("id")
    .execute();
  if (stores.length === 0) return [];
  const listed = await db
    .selectFrom("catalogue_store_products")
    .select(["store_id", "product_id"])
    .where(
      "store_id",
      "in",
      stores.map((store) => store.id),
    )
    .execute();
  const carried = new Map<number, Set<number>>();
  for (const row of listed) {
    const set = carried.get(row.store_id) ?? new Set<number>();
    set.add(row.product_id);
    carried.set(row.store_id, set);
  }
  return stores
    .filter((store) => {
      if (store.carries_all) return true;
      const own = carried.get(store.id);
      return productIds.every((id) => own?.has(id) ?? false);
    })
    .map(({ carries_all: _carriesAll, ...store }) => store);
}
