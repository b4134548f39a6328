import { sql, type Selectable } from "kysely";
import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import type { CatalogueProductTable } from "~/db/schema";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { nowIso } from "~/lib/clock.server";
import type { Language } from "~/lib/i18n";
import { named } from "~/lib/outcome";
import { slugFrom } from "./slug";
import { addError, type Change, type FieldErrors, type RemoveOutcome, type SaveOutcome } from "./fields";
import { isOwnImageKey, productImageUrl, PRODUCT_IMAGES_MAX } from "./images.server";
import type { ProductInput } from "./product-schema";
import { loadShopMoney } from "./shop-money.server";
import { decimalOf, minorOf, type ShopMoney } from "./shop-money";

export type ProductRow = Selectable<CatalogueProductTable>;
export type ProductImage = { id: number; position: number };

export const PRODUCTS_PAGE_SIZE = 25;

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
  "is_active",
  "position",
  "created_at",
  "updated_at",
] as const;

/** `%`, `_` and `\` typed in a search are looked for as themselves. */
const likeOf = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** A page of the merchant's products, newest position last; `search` looks in names, slug and SKU. */
export async function listProducts(
  db: DB,
  merchantId: number,
  options: { search?: string; page?: number; pageSize?: number } = {},
) {
  const size = options.pageSize ?? PRODUCTS_PAGE_SIZE;
  const page = Math.max(1, options.page ?? 1);
  let query = db.selectFrom("catalogue_products").where("merchant_id", "=", merchantId);
  const search = options.search?.trim();
  if (search) {
    const like = likeOf(search);
    query = query.where((eb) =>
      eb.or(
        (["name_en", "name_ar", "slug", "sku"] as const).map((column) =>
          eb(
            eb.fn("lower", [eb.fn.coalesce(column, eb.val(""))]),
            "like",
            sql<string>`${like} escape '\\'`,
          ).$castTo<boolean>(),
        ),
      ),
    );
  }
  const [rows, total] = await Promise.all([
    query
      .select(PRODUCT_COLUMNS)
      .orderBy("position")
      .orderBy("id")
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count), page, pages: Math.max(1, Math.ceil(Number(total.count) / size)) };
}

export function getProduct(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("catalogue_products")
    .select(PRODUCT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export function getProductBySlug(db: DB, merchantId: number, slug: string) {
  return db
    .selectFrom("catalogue_products")
    .select(PRODUCT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("slug", "=", slug)
    .executeTakeFirst();
}

/** The images of these products in their order, by product. */
export async function loadProductImages(db: DB, productIds: readonly number[]): Promise<Map<number, ProductImage[]>> {
  const byProduct = new Map<number, ProductImage[]>();
  if (!productIds.length) return byProduct;
  const rows = await db
    .selectFrom("catalogue_product_images")
    .select(["id", "product_id", "position"])
    .where("product_id", "in", productIds)
    .orderBy("product_id")
    .orderBy("position")
    .orderBy("id")
    .execute();
  for (const row of rows)
    byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), { id: row.id, position: row.position }]);
  return byProduct;
}

/** A product as the API answers it: prices as decimal strings of the shop's currency, `inventory` null when unlimited. */
export function serializeProduct(
  product: ProductRow,
  images: readonly ProductImage[],
  money: ShopMoney,
  lang: Language,
) {
  return {
    id: product.id,
    slug: product.slug,
    sku: product.sku,
    name: lang === "ar" ? product.name_ar : product.name_en,
    name_en: product.name_en,
    name_ar: product.name_ar,
    description_en: product.description_en,
    description_ar: product.description_ar,
    price: decimalOf(product.price, money),
    discounted_price: product.discounted_price === null ? null : decimalOf(product.discounted_price, money),
    currency: money.currency,
    inventory: product.inventory,
    is_active: Boolean(product.is_active),
    unit: product.unit_id,
    position: product.position,
    images: images.map((image) => ({ id: image.id, url: productImageUrl(image.id), position: image.position })),
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}

/** A free slug like `base`: itself, else `base-2`, `base-3`… */
async function freeSlug(db: DB, merchantId: number, base: string, exceptId: number) {
  const taken = new Set(
    (
      await db
        .selectFrom("catalogue_products")
        .select("slug")
        .where("merchant_id", "=", merchantId)
        .where("id", "!=", exceptId)
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute()
    ).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let index = 2; ; index++) {
    const candidate = `${base.slice(0, 75)}-${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

type ProductChange = Change<ProductInput> & { id?: number; addedImages?: readonly string[] };

/** A save refused because units were sold while the form was open: `inventoryNow` is what is left now. */
export type ProductOutcome =
  SaveOutcome<ProductRow> | { ok: false; errors: FieldErrors; notFound?: false; inventoryNow: number | null };

/**
 * Creates a product (`id` absent) or changes the fields sent of one of the merchant's, with its new
 * images (storage keys already put) and the changes to its images (places, removals). Everything is
 * checked under the merchant's lock, in the transaction that writes: the shop's decimals (a settings
 * save), the product's pictures (another tab) and its slug and SKU hold until the product is written.
 */
export async function saveProduct(db: DB, change: ProductChange): Promise<ProductOutcome> {
  try {
    return await writeTransaction(db, async (trx): Promise<ProductOutcome> => {
      await lockMerchant(trx, change.merchantId);
      return saveProductLocked(trx, change);
    });
  } catch (error) {
    if (/unique|duplicate/i.test(String(error)))
      return { ok: false, errors: { slug: [{ code: "catalogue_admin.errors.slug_taken" }] } };
    throw error;
  }
}

async function saveProductLocked(trx: DB, change: ProductChange): Promise<ProductOutcome> {
  const money = await loadShopMoney(trx, change.merchantId);
  const input = change.input;
  const errors: FieldErrors = {};
  const existing = change.id === undefined ? undefined : await getProduct(trx, change.merchantId, change.id);
  if (change.id !== undefined && !existing) return { ok: false, errors: {}, notFound: true };
  if (!existing)
    for (const field of ["name_en", "name_ar", "price"] as const)
      if (input[field] === undefined || input[field] === "") addError(errors, field, "errors.required");
  // A required field sent empty is refused, never read as "leave it as it is".
  if (existing && input.price === "") addError(errors, "price", "errors.required");

  let slug: string | undefined = input.slug;
  if (slug === "" || (slug === undefined && !existing)) {
    const base = slugFrom(input.name_en ?? existing?.name_en ?? "");
    if (base) slug = await freeSlug(trx, change.merchantId, base, existing?.id ?? 0);
    else if (!errors.name_en) addError(errors, "slug", "catalogue_admin.errors.slug_required");
  } else if (slug !== undefined && slug !== existing?.slug) {
    const taken = await trx
      .selectFrom("catalogue_products")
      .select("id")
      .where("merchant_id", "=", change.merchantId)
      .where("slug", "=", slug)
      .where("id", "!=", existing?.id ?? 0)
      .executeTakeFirst();
    if (taken) addError(errors, "slug", "catalogue_admin.errors.slug_taken");
  }

  const price =
    input.price === undefined || input.price === "" ? undefined : minorOf(input.price, money, "price", errors);
  const discounted =
    input.discounted_price === undefined
      ? undefined
      : input.discounted_price === null || input.discounted_price === ""
        ? null
        : minorOf(input.discounted_price, money, "discounted_price", errors);
  const finalPrice = price ?? existing?.price;
  const finalDiscount = discounted === undefined ? (existing?.discounted_price ?? null) : discounted;
  if (finalPrice !== undefined && finalDiscount !== null && finalDiscount > finalPrice && !errors.discounted_price)
    addError(errors, "discounted_price", "catalogue_admin.errors.discount_above_price");

  const sku = input.sku === undefined ? undefined : input.sku === null || input.sku === "" ? null : input.sku;
  if (sku) {
    const taken = await trx
      .selectFrom("catalogue_products")
      .select("id")
      .where("merchant_id", "=", change.merchantId)
      .where((eb) => eb(eb.fn("lower", ["sku"]), "=", sku.toLowerCase()))
      .where("id", "!=", existing?.id ?? 0)
      .executeTakeFirst();
    if (taken) addError(errors, "sku", "catalogue_admin.errors.sku_taken");
  }
  if (input.unit) {
    const unit = await trx
      .selectFrom("units")
      .select("id")
      .where("merchant_id", "=", change.merchantId)
      .where("id", "=", input.unit)
      .executeTakeFirst();
    if (!unit) addError(errors, "unit", "catalogue_admin.errors.unit");
  }

  // Images: those named are placed or removed; the new ones come after; five at most.
  const current = existing ? ((await loadProductImages(trx, [existing.id])).get(existing.id) ?? []) : [];
  const imageChanges = new Map((input.images ?? []).map((image) => [image.id, image]));
  for (const id of imageChanges.keys())
    if (!current.some((image) => image.id === id)) addError(errors, "images", "catalogue_admin.errors.image_unknown");
  const kept = current
    .filter((image) => !imageChanges.get(image.id)?.remove)
    .map((image, index) => ({ id: image.id, position: imageChanges.get(image.id)?.position ?? image.position, index }))
    .sort((a, b) => a.position - b.position || a.index - b.index);
  const added = (change.addedImages ?? []).filter((key) => isOwnImageKey(change.merchantId, "product", key));
  if (kept.length + added.length > PRODUCT_IMAGES_MAX)
    addError(errors, "images", "catalogue_admin.errors.too_many_images", { max: PRODUCT_IMAGES_MAX });

  // The form's inventory is what it showed: unchanged, sales meanwhile stand; changed, only if none happened.
  const shown =
    input.inventory_shown === undefined
      ? undefined
      : input.inventory_shown === ""
        ? null
        : Number(input.inventory_shown);
  const inventoryTyped = existing && shown !== undefined && input.inventory === shown ? undefined : input.inventory;
  if (Object.keys(errors).length) return { ok: false, errors };

  const at = nowIso();
  const values = {
    slug,
    sku,
    name_en: input.name_en,
    name_ar: input.name_ar,
    description_en: input.description_en,
    description_ar: input.description_ar,
    price,
    discounted_price: discounted,
    inventory: inventoryTyped,
    is_active: input.is_active === undefined ? undefined : Number(input.is_active),
    unit_id: input.unit,
    position: input.position,
    updated_at: at,
  };
  let saved: ProductRow | undefined;
  if (existing) {
    let update = trx
      .updateTable("catalogue_products")
      .set(values)
      .where("id", "=", existing.id)
      .where("merchant_id", "=", change.merchantId);
    if (inventoryTyped !== undefined && shown !== undefined)
      update = update.where("inventory", shown === null ? "is" : "=", shown);
    saved = await update.returning(PRODUCT_COLUMNS).executeTakeFirst();
    if (!saved) {
      // Sold meanwhile: the form is answered with what is left now, so saving again applies the typed inventory.
      const now = await trx
        .selectFrom("catalogue_products")
        .select("inventory")
        .where("id", "=", existing.id)
        .executeTakeFirst();
      return {
        ok: false,
        errors: { inventory: [{ code: "catalogue_admin.errors.inventory_changed" }] },
        inventoryNow: now?.inventory ?? null,
      };
    }
  } else {
    const top = await trx
      .selectFrom("catalogue_products")
      .select((eb) => eb.fn.max("position").as("position"))
      .where("merchant_id", "=", change.merchantId)
      .executeTakeFirst();
    saved = await trx
      .insertInto("catalogue_products")
      .values({
        ...values,
        merchant_id: change.merchantId,
        slug: slug!,
        name_en: input.name_en!,
        name_ar: input.name_ar!,
        price: price!,
        is_active: Number(input.is_active ?? true),
        position: input.position ?? Number(top?.position ?? 0) + 1,
        created_at: at,
      })
      .returning(PRODUCT_COLUMNS)
      .executeTakeFirstOrThrow();
  }
  const productId = saved.id;
  const removed = current.filter((image) => imageChanges.get(image.id)?.remove).map((image) => image.id);
  if (removed.length)
    await trx
      .deleteFrom("catalogue_product_images")
      .where("product_id", "=", productId)
      .where("id", "in", removed)
      .execute();
  for (const [position, image] of kept.entries())
    await trx
      .updateTable("catalogue_product_images")
      .set({ position })
      .where("id", "=", image.id)
      .where("product_id", "=", productId)
      .execute();
  if (added.length)
    await trx
      .insertInto("catalogue_product_images")
      .values(added.map((path, index) => ({ product_id: productId, path, position: kept.length + index })))
      .execute();
  await recordAudit(trx, {
    merchantId: change.merchantId,
    actor: change.actor,
    action: existing ? "catalogue_product_updated" : "catalogue_product_created",
    params: { name: named(saved.name_en, saved.name_ar), slug: saved.slug },
    objectType: "catalogue_product",
    objectId: saved.id,
    ip: change.ip,
  });
  return { ok: true, value: saved };
}

/**
 * A product that orders name is only deactivated (answers `deactivated`): its orders keep pointing
 * at it. One never ordered is deleted with its images' rows and its place in stores.
 */
export async function deleteProduct(
  db: DB,
  input: { merchantId: number; actor: Change<unknown>["actor"]; id: number; ip?: string | null },
): Promise<RemoveOutcome> {
  return writeTransaction(db, async (trx): Promise<RemoveOutcome> => {
    // Checkouts take the merchant's lock too: one naming the product has either committed its order
    // (seen here, so the product is only deactivated) or runs after and finds the product gone.
    await lockMerchant(trx, input.merchantId);
    const product = await getProduct(trx, input.merchantId, input.id);
    if (!product) return { ok: false };
    const ordered = await trx
      .selectFrom("catalogue_order_lines")
      .select("id")
      .where("product_id", "=", product.id)
      .limit(1)
      .executeTakeFirst();
    if (ordered) {
      await trx
        .updateTable("catalogue_products")
        .set({ is_active: 0, updated_at: nowIso() })
        .where("id", "=", product.id)
        .execute();
    } else {
      await trx.deleteFrom("catalogue_product_images").where("product_id", "=", product.id).execute();
      await trx.deleteFrom("catalogue_store_products").where("product_id", "=", product.id).execute();
      await trx.deleteFrom("catalogue_products").where("id", "=", product.id).execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: ordered ? "catalogue_product_deactivated" : "catalogue_product_deleted",
      params: { name: named(product.name_en, product.name_ar), slug: product.slug },
      objectType: "catalogue_product",
      objectId: product.id,
      ip: input.ip,
    });
    return { ok: true, deactivated: Boolean(ordered) } as const;
  });
}
