import type { Route } from "./+types/public-event-image";
import { contentTypeOf, readAttachment } from "~/domain/payments/attachments.server";
import { apiDetail } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { requirePublicEvent } from "./public-api.server";

/** GET events/{slug}/image: a published event's stored image, as an image a page may show. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const event = await requirePublicEvent(getDbFrom(context), request, params.slug);
  const bytes =
    event.image_path && !/^(https?:\/\/|\/)/.test(event.image_path) ? await readAttachment(event.image_path) : null;
  const type = bytes ? contentTypeOf(bytes) : null;
  if (!bytes || !type?.startsWith("image/")) return apiDetail(request, "events_public.errors.not_found", 404);
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": type,
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
