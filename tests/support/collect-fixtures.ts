import { inflateSync } from "node:zlib";
import zxing from "@zxing/library";
import type { DB } from "~/db/database.server";
import type { CollectorFieldMode } from "~/db/schema";
import { publicId } from "~/lib/ids.server";

export type TestCollectorInput = {
  merchantId: number;
  title_en?: string;
  title_ar?: string;
  name_field?: CollectorFieldMode;
  email_field?: CollectorFieldMode;
  phone_field?: CollectorFieldMode;
  reference_field?: CollectorFieldMode;
  text_fields?: { name: string; label_en: string; label_ar: string; required: boolean }[];
  is_active?: boolean;
};

/** A collector page written straight into its table, as the collector form would save it. */
export async function createTestCollector(db: DB, input: TestCollectorInput) {
  const at = new Date().toISOString();
  const id = publicId();
  const row = await db
    .insertInto("customer_payment_collectors")
    .values({
      public_id: id,
      merchant_id: input.merchantId,
      title_en: input.title_en ?? "Pay your invoice",
      title_ar: input.title_ar ?? "ادفع فاتورتك",
      description_en: "Enter the amount on your invoice.",
      description_ar: "أدخل المبلغ المذكور في فاتورتك.",
      name_field: input.name_field ?? "required",
      email_field: input.email_field ?? "optional",
      phone_field: input.phone_field ?? "optional",
      reference_field: input.reference_field ?? "off",
      text_fields: JSON.stringify(input.text_fields ?? []),
      is_active: input.is_active === false ? 0 : 1,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, publicId: id };
}

/**
 * Restrictions written straight into their table (`collectorId` null: the merchant's), amounts in
 * minor units by currency, days as Kuwait dates.
 */
export async function setTestRestrictions(
  db: DB,
  input: {
    merchantId: number;
    collectorId?: number | null;
    currencies?: string[];
    gateways?: string[];
    limits?: Record<string, { min?: number; max?: number; daily_cap?: number }>;
    active_from?: string | null;
    active_to?: string | null;
  },
) {
  const collectorId = input.collectorId ?? null;
  let remove = db.deleteFrom("customer_payment_restrictions").where("merchant_id", "=", input.merchantId);
  remove =
    collectorId === null ? remove.where("collector_id", "is", null) : remove.where("collector_id", "=", collectorId);
  await remove.execute();
  await db
    .insertInto("customer_payment_restrictions")
    .values({
      merchant_id: input.merchantId,
      collector_id: collectorId,
      currencies: (input.currencies ?? []).join(","),
      gateways: (input.gateways ?? []).join(","),
      limits: JSON.stringify(input.limits ?? {}),
      active_from: input.active_from ?? null,
      active_to: input.active_to ?? null,
      updated_at: new Date().toISOString(),
    })
    .execute();
}

/**
 * The texts of the QR codes drawn in a PDF: each image the PDF holds (Flate-compressed grey or RGB
 * pixels, as pdfkit writes them) read by a QR decoder. An image that is no QR code is skipped.
 */
export function qrCodesInPdf(pdf: Buffer): string[] {
  // A CommonJS package: its classes are read from the default export.
  const { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } = zxing;
  // As a phone's camera app reads it: trying hard (the quick pass misses some patterns), then as a code alone in its image.
  const attempts = [new Map([[DecodeHintType.TRY_HARDER, true]]), new Map([[DecodeHintType.PURE_BARCODE, true]])];
  const source = pdf.toString("latin1");
  const found: string[] = [];
  for (const match of source.matchAll(/<<((?:(?!>>)[\s\S])*\/Subtype \/Image(?:(?!>>)[\s\S])*)>>\s*stream\r?\n/g)) {
    const dict = match[1];
    const number = (name: string) => Number(new RegExp(`/${name} (\\d+)`).exec(dict)?.[1]);
    const [width, height, length] = [number("Width"), number("Height"), number("Length")];
    const channels = /\/DeviceRGB/.test(dict) ? 3 : /\/DeviceGray/.test(dict) ? 1 : 0;
    if (!channels || !width || !height || !length || !/\/FlateDecode/.test(dict) || /\/DecodeParms/.test(dict))
      continue;
    const start = match.index + match[0].length;
    const pixels = inflateSync(pdf.subarray(start, start + length));
    const luminance = new Uint8ClampedArray(width * height);
    for (let i = 0; i < width * height; i++)
      luminance[i] = channels === 1 ? pixels[i] : (pixels[i * 3] + pixels[i * 3 + 1] * 2 + pixels[i * 3 + 2]) >> 2;
    for (const hints of attempts) {
      try {
        found.push(
          new QRCodeReader()
            .decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height))), hints)
            .getText(),
        );
        break;
      } catch {
        // Not read this way, or not a QR code (a logo, a transparency mask).
      }
    }
  }
  return found;
}
