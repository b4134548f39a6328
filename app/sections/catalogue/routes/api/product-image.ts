import type { Route } from "./+types/product-image";
import { readProductImage } from "~/sections/catalogue/domain/images.server";
import { idOf } from "~/sections/catalogue/domain/fields";
import { getDbFrom } from "~/web/request-context.server";

/**
 * A product's image, for anyone while the product is active (the shop shows it); an inactive
 * product's is not found here (the dashboard has its own address). An image row's file never
 * changes (a new picture is a new row), so browsers and shared caches keep it for a day; the ETag
 * lets them check.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const id = idOf(params.imageId);
  const image = id === null ? null : await readProductImage(getDbFrom(context), id);
  if (!image)
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  const etag = `"catalogue-image-${id}-${image.bytes.length}"`;
  const headers = {
    "Content-Type": image.type,
    "Cache-Control": "public, max-age=86400",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(image.bytes), { headers });
}
