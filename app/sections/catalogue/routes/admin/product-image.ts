import type { Route } from "./+types/product-image";
import { idOf } from "~/sections/catalogue/domain/fields";
import { readMerchantProductImage } from "~/sections/catalogue/domain/images.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * A picture of one of the merchant's products for its staff (view_product), active or not: the
 * public address serves only active products' pictures. Kept by the browser alone, for a day.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth } = await guardCataloguePage(context, request, params, {
    feature: "products",
    permission: "view_product",
  });
  const productId = idOf(params.id);
  const imageId = idOf(params.imageId);
  const image =
    productId === null || imageId === null
      ? null
      : await readMerchantProductImage(getDbFrom(context), auth.user.merchantId, productId, imageId);
  if (!image) notFound();
  const etag = `"catalogue-image-${imageId}-${image.bytes.length}"`;
  const headers = {
    "Content-Type": image.type,
    "Cache-Control": "private, max-age=86400",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(image.bytes), { headers });
}
