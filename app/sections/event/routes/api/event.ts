import type { Route } from "./+types/event";
import { EventSchema } from "~/sections/event/domain/event-schema";
import {
  findMerchantEvent,
  loadEventDetails,
  serializeEvent,
  updateEvent,
} from "~/sections/event/domain/events.server";
import { eventErrorMessages, issuesByField } from "~/sections/event/presentation/event-errors.server";
import { apiDetail, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext } from "~/web/request-context.server";
import { pathId, requireEventApi } from "./access.server";

/** GET: one of the merchant's events; another merchant's answers 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, lang } = await requireEventApi(request, context, "view_booking");
  const id = pathId(params.id);
  const event = id === null ? undefined : await findMerchantEvent(db, user.merchantId, id);
  if (!event) throw apiDetail(request, "api.not_found", 404);
  return apiJson(serializeEvent(await loadEventDetails(db, event), lang));
}

/**
 * PATCH: changes only the fields sent. `tickets`, when sent, is the whole list: a ticket with an
 * `id` is changed, one without is added, one left out is taken off sale (kept for its bookings).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT") return methodNotAllowed(request);
  const { user, db, lang } = await requireEventApi(request, context, "change_booking");
  const id = pathId(params.id);
  if (id === null) throw apiDetail(request, "api.not_found", 404);
  const parsed = EventSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiJson(eventErrorMessages(issuesByField(parsed.error.issues), lang), 400);
  const updated = await updateEvent(db, {
    merchantId: user.merchantId,
    eventId: id,
    actor: { id: user.id, username: user.username },
    event: parsed.data,
    ip: context.get(clientAddressContext),
  });
  if (!updated.ok) {
    if (updated.notFound) throw apiDetail(request, "api.not_found", 404);
    return apiJson(eventErrorMessages(updated.errors, lang), 400);
  }
  return apiJson(serializeEvent(await loadEventDetails(db, updated.event), lang));
}
