import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { DiscountSchema } from "../domain/discount-schema";
import {
  deleteDiscount,
  getDiscount,
  listDiscounts,
  saveDiscount,
  serializeDiscount,
} from "../domain/discounts-admin.server";
import { idOf, type Actor, type RemoveOutcome, type SaveOutcome } from "../domain/fields";
import { ProductSchema } from "../domain/product-schema";
import {
  deleteProduct,
  getProduct,
  getProductBySlug,
  listProducts,
  loadProductImages,
  saveProduct,
  serializeProduct,
} from "../domain/products-admin.server";
import type { ShopMoney } from "../domain/shop-money";
import { StoreSchema } from "../domain/store-schema";
import {
  deleteStore,
  getStore,
  listStores,
  loadStoreProducts,
  saveStore,
  serializeStore,
} from "../domain/stores-admin.server";
import type { CatalogueFeature } from "./guard.server";

type Ctx = { db: DB; merchantId: number; money: ShopMoney; lang: Language };
type Write = { merchantId: number; actor: Actor; ip?: string | null };
type Schema = {
  safeParse(
    body: unknown,
  ):
    | { success: true; data: any }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
};

/**
 * The resources of the management API (`dashboard/<name>`): a product is named by its slug, a
 * store and a discount by their ids. Each has its schema, list, reader, writer and remover, so one
 * pair of routes serves them all with the same rules.
 */
export type CatalogueResource = {
  feature: CatalogueFeature;
  schema: Schema;
  /** The record's id from the path's key (a slug or an id), if the merchant has it. */
  find(ctx: Ctx, key: string): Promise<number | undefined>;
  list(ctx: Ctx, query: URLSearchParams): Promise<{ count: number; results: unknown[] }>;
  get(ctx: Ctx, id: number): Promise<unknown>;
  save(db: DB, change: Write & { input: any; id?: number }): Promise<SaveOutcome<{ id: number }>>;
  remove(db: DB, input: Write & { id: number }): Promise<RemoveOutcome>;
};

const productView = async (ctx: Ctx, id: number) => {
  const row = await getProduct(ctx.db, ctx.merchantId, id);
  return row && serializeProduct(row, (await loadProductImages(ctx.db, [id])).get(id) ?? [], ctx.money, ctx.lang);
};

export const CATALOGUE_RESOURCES: Record<string, CatalogueResource> = {
  products: {
    feature: "products",
    schema: ProductSchema,
    find: async (ctx, key) => (await getProductBySlug(ctx.db, ctx.merchantId, key))?.id,
    list: async (ctx, query) => {
      const page = /^\d{1,6}$/.test(query.get("page") ?? "") ? Number(query.get("page")) : 1;
      const pageSize = /^\d{1,3}$/.test(query.get("page_size") ?? "")
        ? Math.min(500, Math.max(1, Number(query.get("page_size"))))
        : 100;
      const { rows, count } = await listProducts(ctx.db, ctx.merchantId, {
        search: query.get("search") ?? undefined,
        page,
        pageSize,
      });
      const images = await loadProductImages(
        ctx.db,
        rows.map((row) => row.id),
      );
      return {
        count,
        results: rows.map((row) => serializeProduct(row, images.get(row.id) ?? [], ctx.money, ctx.lang)),
      };
    },
    get: productView,
    save: saveProduct,
    remove: deleteProduct,
  },
  stores: {
    feature: "stores",
    schema: StoreSchema,
    find: async (ctx, key) => {
      const id = idOf(key);
      return id === null ? undefined : (await getStore(ctx.db, ctx.merchantId, id))?.id;
    },
    list: async (ctx) => {
      const rows = await listStores(ctx.db, ctx.merchantId);
      const products = await loadStoreProducts(
        ctx.db,
        rows.map((row) => row.id),
      );
      return { count: rows.length, results: rows.map((row) => serializeStore(row, products.get(row.id), ctx.lang)) };
    },
    get: async (ctx, id) => {
      const row = await getStore(ctx.db, ctx.merchantId, id);
      return row && serializeStore(row, (await loadStoreProducts(ctx.db, [id])).get(id), ctx.lang);
    },
    save: saveStore,
    remove: deleteStore,
  },
  discounts: {
    feature: "discounts",
    schema: DiscountSchema,
    find: async (ctx, key) => {
      const id = idOf(key);
      return id === null ? undefined : (await getDiscount(ctx.db, ctx.merchantId, id))?.id;
    },
    list: async (ctx) => {
      const rows = await listDiscounts(ctx.db, ctx.merchantId);
      return { count: rows.length, results: rows.map((row) => serializeDiscount(row, ctx.money)) };
    },
    get: async (ctx, id) => {
      const row = await getDiscount(ctx.db, ctx.merchantId, id);
      return row && serializeDiscount(row, ctx.money);
    },
    save: saveDiscount,
    remove: deleteDiscount,
  },
};
