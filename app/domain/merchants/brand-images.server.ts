import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { randomToken } from "~/lib/crypto.server";
import { word } from "~/lib/outcome";
import { checkPicture, ICO, JPEG, PNG, sniff, WEBP, type SniffedType } from "~/lib/file-types";
import { storage } from "~/lib/storage.server";

/**
 * The merchant's logo and favicon, uploaded from the administration panel. The type is read from
 * the first bytes, never from the name or the browser's word, and only raster images are taken
 * (an SVG can carry scripts). Each upload gets a new name, so the address can be cached for ever;
 * the logo is also the default unit's, which the customer pages, receipts and mails show.
 */
export type BrandImage = "logo" | "favicon";

const LIMITS: Record<BrandImage, number> = { logo: 512 * 1024, favicon: 128 * 1024 };

/** Raster images only; an icon for the favicon alone. */
const TYPES: Record<BrandImage, readonly SniffedType[]> = { logo: [PNG, JPEG, WEBP], favicon: [PNG, JPEG, WEBP, ICO] };

/** The public address of a stored image: /media/brand/<merchant>/<name>. */
export const BRAND_IMAGE_NAME = /^(logo|favicon)-[\w-]{12}\.(png|jpg|webp|ico)$/;

type UploadedFile = { size: number; arrayBuffer(): Promise<ArrayBuffer> };

/**
 * Checks an uploaded image (its size, its type by its first bytes, its width and height) and stores it under a new name;
 * answers its public address. Writes nothing in the database: the caller says whose image it is.
 */
export async function putBrandImage(
  merchantId: number,
  image: BrandImage,
  file: UploadedFile,
): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  if (file.size === 0) return { ok: false, error: "admin.images.errors.empty" };
  if (file.size > LIMITS[image]) return { ok: false, error: `admin.images.errors.too_large_${image}` };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const picture = checkPicture(bytes, TYPES[image]);
  if (!picture.ok)
    return {
      ok: false,
      error: picture.reason === "dimensions" ? "errors.picture_dimensions" : `admin.images.errors.type_${image}`,
    };
  const name = `${image}-${randomToken(9)}.${picture.type.extension}`;
  await storage().put(`brand/${merchantId}/${name}`, bytes);
  return { ok: true, url: `/media/brand/${merchantId}/${name}` };
}

export async function storeBrandImage(
  db: DB,
  input: {
    merchantId: number;
    actor: { id: number; username: string };
    image: BrandImage;
    file: UploadedFile;
    ip?: string | null;
  },
): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  const stored = await putBrandImage(input.merchantId, input.image, input.file);
  if (!stored.ok) return stored;
  const { url } = stored;
  await writeTransaction(db, async (trx) => {
    // Under the merchant's lock, as a change of its default unit is (units-admin), so the two never cross.
    await lockMerchant(trx, input.merchantId);
    if (input.image === "logo") {
      await trx.updateTable("merchants").set({ logo_url: url }).where("id", "=", input.merchantId).execute();
      await trx
        .updateTable("units")
        .set({ logo_url: url })
        .where("merchant_id", "=", input.merchantId)
        .where("is_default", "=", 1)
        .execute();
    } else {
      await trx.updateTable("merchants").set({ favicon_url: url }).where("id", "=", input.merchantId).execute();
    }
    await recordAudit(trx, {
      merchantId: input.merchantId,
      actor: input.actor,
      action: "merchant_image_changed",
      params: { image: word(`admin.images.audit_${input.image}`) },
      objectType: "merchant",
      objectId: input.merchantId,
      ip: input.ip ?? null,
    });
  });
  return { ok: true, url };
}

/** A stored image and its type (sniffed again), or null. */
export async function readBrandImage(merchantId: number, name: string) {
  if (!BRAND_IMAGE_NAME.test(name)) return null;
  const bytes = await storage().get(`brand/${merchantId}/${name}`);
  if (!bytes) return null;
  const kind = sniff(bytes, TYPES[name.startsWith("favicon-") ? "favicon" : "logo"]);
  return kind ? { bytes, type: kind.type } : null;
}
