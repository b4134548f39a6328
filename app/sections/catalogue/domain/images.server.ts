import type { DB } from "~/db/database.server";
import { randomToken } from "~/lib/crypto.server";
import { checkPicture, JPEG, PNG, sniff, WEBP } from "~/lib/file-types";
import { storage } from "~/lib/storage.server";

/**
 * The catalogue's pictures: products' images and the shop's banner. The type is read from the first
 * bytes (JPEG, PNG or WebP; never an SVG, which can carry scripts), each upload gets a new random
 * name, and the file is stored before any row names it, so a form refused for another field keeps
 * the pictures it carried (their keys ride along in the form until it is saved).
 */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const PRODUCT_IMAGES_MAX = 5;
const TYPES = [PNG, JPEG, WEBP];

export type ImageKind = "product" | "banner";
type UploadedFile = { size: number; arrayBuffer(): Promise<ArrayBuffer> };

const keyPattern = (merchantId: number, kind: ImageKind) =>
  new RegExp(`^catalogue/${merchantId}/${kind}-[\\w-]{12}\\.(png|jpg|webp)$`);

/** Whether a storage key names a picture this merchant uploaded (a form's hidden field is not trusted further). */
export function isOwnImageKey(merchantId: number, kind: ImageKind, key: unknown): key is string {
  return typeof key === "string" && keyPattern(merchantId, kind).test(key);
}

/** Checks an uploaded picture and stores it; answers its storage key. */
export async function putCatalogueImage(
  merchantId: number,
  kind: ImageKind,
  file: UploadedFile,
): Promise<{ ok: true; key: string } | { ok: false; error: string }> {
  if (file.size === 0) return { ok: false, error: "catalogue_admin.errors.image_empty" };
  if (file.size > IMAGE_MAX_BYTES) return { ok: false, error: "catalogue_admin.errors.image_too_large" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const picture = checkPicture(bytes, TYPES);
  if (!picture.ok)
    return {
      ok: false,
      error: picture.reason === "dimensions" ? "errors.picture_dimensions" : "catalogue_admin.errors.image_type",
    };
  const key = `catalogue/${merchantId}/${kind}-${randomToken(9)}.${picture.type.extension}`;
  await storage().put(key, bytes);
  return { ok: true, key };
}

/** Where the shop (and the API) show a product's image: served to anyone while the product is active. */
export function productImageUrl(imageId: number) {
  return `/api/v1/plugins/catalogue/product-image/${imageId}`;
}

/** Where the dashboard shows a product's image to the merchant's staff, whether the product is active or not. */
export function dashboardProductImageUrl(lang: string, productId: number, imageId: number) {
  return `/${lang}/catalogue/products/${productId}/images/${imageId}`;
}

/** The banner's public address, kept in the configuration's `banner.image`. */
export function bannerImageUrl(key: string) {
  const [, merchantId, name] = key.split("/");
  return `/api/v1/plugins/catalogue/banner-image/${merchantId}/${name}`;
}

async function readKey(key: string) {
  const bytes = await storage().get(key);
  if (!bytes) return null;
  const type = sniff(bytes, TYPES);
  return type ? { bytes, type: type.type } : null;
}

/**
 * A product image's file and type for anyone, by its row: only an active product's (the shop shows
 * no other), so the pictures of a product not yet on sale or taken off it stay the merchant's.
 */
export async function readProductImage(db: DB, imageId: number) {
  const row = await db
    .selectFrom("catalogue_product_images")
    .innerJoin("catalogue_products", "catalogue_products.id", "catalogue_product_images.product_id")
    .select("catalogue_product_images.path")
    .where("catalogue_product_images.id", "=", imageId)
    .where("catalogue_products.is_active", "=", 1)
    .executeTakeFirst();
  return row ? readKey(row.path) : null;
}

/** A product image for the merchant's own staff, whatever the product's state; another merchant's is not found. */
export async function readMerchantProductImage(db: DB, merchantId: number, productId: number, imageId: number) {
  const row = await db
    .selectFrom("catalogue_product_images")
    .innerJoin("catalogue_products", "catalogue_products.id", "catalogue_product_images.product_id")
    .select("catalogue_product_images.path")
    .where("catalogue_product_images.id", "=", imageId)
    .where("catalogue_products.id", "=", productId)
    .where("catalogue_products.merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row ? readKey(row.path) : null;
}

export async function readBannerImage(merchantId: number, name: string) {
  const key = `catalogue/${merchantId}/${name}`;
  return isOwnImageKey(merchantId, "banner", key) ? readKey(key) : null;
}
