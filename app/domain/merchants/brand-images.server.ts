import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { randomToken } from "~/lib/crypto.server";
import { word } from "~/lib/outcome";
import { storage } from "~/lib/storage.server";

/**
 * The merchant's logo and favicon, uploaded from the administration panel. The type is read from
 * the first bytes, never from the name or the browser's word, and only raster images are taken
 * (an SVG can carry scripts). Each upload gets a new name, so the address can be cached for ever;
 * the logo is also the default unit's, which the customer pages, receipts and mails show.
 */
export type BrandImage = "logo" | "favicon";

const LIMITS: Record<BrandImage, number> = { logo: 512 * 1024, favicon: 128 * 1024 };

const TYPES = [
  { type: "image/png", extension: "png", matches: (bytes: Uint8Array) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: "image/jpeg", extension: "jpg", matches: (bytes: Uint8Array) => startsWith(bytes, [0xff, 0xd8, 0xff]) },
  { type: "image/webp", extension: "webp", matches: (bytes: Uint8Array) => startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP" },
  { type: "image/x-icon", extension: "ico", matches: (bytes: Uint8Array) => startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) },
] as const;

function startsWith(bytes: Uint8Array, signature: number[]) {
  return signature.every((byte, index) => bytes[index] === byte);
}

/** The public address of a stored image: /media/brand/<merchant>/<name>. */
export const BRAND_IMAGE_NAME = /^(logo|favicon)-[\w-]{12}\.(png|jpg|webp|ico)$/;

export async function storeBrandImage(
  db: DB,
  input: { merchantId: number; actor: { id: number; username: string }; image: BrandImage; file: { size: number; arrayBuffer(): Promise<ArrayBuffer> }; ip?: string | null },
): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  if (input.file.size === 0) return { ok: false, error: "admin.images.errors.empty" };
  if (input.file.size > LIMITS[input.image]) return { ok: false, error: `admin.images.errors.too_large_${input.image}` };
  const bytes = new Uint8Array(await input.file.arrayBuffer());
  const kind = TYPES.find((candidate) => candidate.matches(bytes) && (candidate.extension !== "ico" || input.image === "favicon"));
  if (!kind) return { ok: false, error: `admin.images.errors.type_${input.image}` };
  const name = `${input.image}-${randomToken(9)}.${kind.extension}`;
  await storage().put(`brand/${input.merchantId}/${name}`, bytes);
  const url = `/media/brand/${input.merchantId}/${name}`;
  await writeTransaction(db, async (trx) => {
    if (input.image === "logo") {
      await trx.updateTable("merchants").set({ logo_url: url }).where("id", "=", input.merchantId).execute();
      await trx.updateTable("units").set({ logo_url: url }).where("merchant_id", "=", input.merchantId).where("is_default", "=", 1).execute();
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
  const kind = TYPES.find((candidate) => candidate.matches(bytes));
  return kind ? { bytes, type: kind.type } : null;
}
