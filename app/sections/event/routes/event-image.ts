import type { Route } from "./+types/event-image";
import { readEventImage } from "~/sections/event/domain/events.server";

/** An event's picture, for anyone (the public pages show it); its name changes with each upload. */
export async function loader({ params }: Route.LoaderArgs) {
  const merchantId = /^\d{1,9}$/.test(params.merchantId ?? "") ? Number(params.merchantId) : null;
  const image = merchantId === null ? null : await readEventImage(merchantId, params.file ?? "");
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
