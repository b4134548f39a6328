import type { Route } from "./+types/banner-image";
import { readBannerImage } from "~/sections/catalogue/domain/images.server";

/** The shop's banner picture, for anyone; its name changes with each upload, so it is cached for ever. */
export async function loader({ params }: Route.LoaderArgs) {
  const merchantId = /^\d{1,9}$/.test(params.merchantId) ? Number(params.merchantId) : null;
  const image = merchantId === null ? null : await readBannerImage(merchantId, params.file);
  if (!image)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(Buffer.from(image.bytes), {
    headers: {
      "Content-Type": image.type,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
