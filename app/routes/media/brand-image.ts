import type { Route } from "./+types/brand-image";
import { readBrandImage } from "~/domain/merchants/brand-images.server";

/** A merchant's uploaded logo or favicon, for anyone (customer pages show them); its name changes with each upload. */
export async function loader({ params }: Route.LoaderArgs) {
  const merchantId = /^\d{1,9}$/.test(params.merchantId) ? Number(params.merchantId) : null;
  const image = merchantId === null ? null : await readBrandImage(merchantId, params.file);
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
