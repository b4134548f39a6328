import type { Route } from "./+types/event-image";
import { loadEventDetails, serializeEvent, storeEventImage } from "~/sections/event/domain/events.server";
import { eventErrorMessages } from "~/sections/event/presentation/event-errors.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { clientAddressContext } from "~/web/request-context.server";
import { pathId, requireEventApi } from "./access.server";

/** POST (multipart, `image`: PNG, JPEG or WebP of at most 2 MB): sets the event's picture; answers the event with its image_url. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireEventApi(request, context, "change_booking");
  const id = pathId(params.id);
  if (id === null) throw apiDetail(request, "api.not_found", 404);
  if (Number(request.headers.get("Content-Length") ?? 0) > 3 * 1024 * 1024)
    throw apiDetail(request, "errors.too_large", 413);
  let file: FormDataEntryValue | null = null;
  try {
    file = (await request.formData()).get("image");
  } catch {
    throw apiDetail(request, "api.invalid_body", 400);
  }
  if (!(file instanceof File)) return apiJson(eventErrorMessages({ image: [{ code: "errors.required" }] }, lang), 400);
  const stored = await storeEventImage(db, {
    merchantId: user.merchantId,
    eventId: id,
    actor: { id: user.id, username: user.username },
    file,
    ip: context.get(clientAddressContext),
  });
  if (!stored.ok) {
    if (stored.notFound) throw apiDetail(request, "api.not_found", 404);
    return apiJson(eventErrorMessages(stored.errors, lang), 400);
  }
  return apiJson(serializeEvent(await loadEventDetails(db, stored.event), lang));
}
