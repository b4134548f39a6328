import type { DB } from "~/db/database.server";
import { randomToken } from "~/lib/crypto.server";
import { JPEG, PNG, sniff, WEBP } from "~/lib/file-types";
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

const keyPattern = (merchantId: number, kind: ImageKind) => new RegExp(`^catalogue/${merchantId}/${kind}-[\\w-]{12}\\.(png|jpg|webp)$`);

/** Whether a storage key names a picture this merchant uploaded (a form's hidden field is not trusted further). */
export function isOwnImageKey(merchantId: number, kind: ImageKind, key: unknown): key is string {
  return typeof key === "string" && keyPattern(merchantId, kind).test(key);
}

/** Checks an uploaded picture and stores it; answers its storage key. */
export async function putCatalogueImage(merchantId: number, kind: ImageKind, file: UploadedFile): Promise<{ ok: true; key: string } | { ok: false; error: string }> {
  if (file.size === 0) return { ok: false, error: "catalogue_admin.errors.image_empty" };
  if (file.size > IMAGE_MAX_BYTES) return { ok: false, error: "catalogue_admin.errors.image_too_large" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniff(bytes, TYPES);
  if (!type) return { ok: false, error: "catalogue_admin.errors.image_type" };
  const key = `catalogue/${merchantId}/${kind}-${randomToken(9)}.${type.extension}`;
  await storage().put(key, bytes);
  return { ok: true, key };
}

/** Where the shop and the dashboard show a product's image. */
export function productImageUrl(imageId: number) {
  return `/api/v1/plugins/catalogue/product-image/${imageId}`;
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

/** A product image's file and type, by its row (any merchant's: the shop shows them to anyone). */
export async function readProductImage(db: DB, imageId: number) {
  const row = await db.selectFrom("catalogue_product_images").select("path").where("id", "=", imageId).executeTakeFirst();
  return row ? readKey(row.path) : null;
}

export async function readBannerImage(merchantId: number, name: string) {
  const key = `catalogue/${merchantId}/${name}`;
  return isOwnImageKey(merchantId, "banner", key) ? readKey(key) : null;
}
