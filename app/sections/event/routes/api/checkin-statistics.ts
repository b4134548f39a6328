import type { Route } from "./+types/checkin-statistics";
import { bookingStatistics, findCheckinEvent } from "../../domain/checkin.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { eventIdOf, requireCheckinApi } from "./checkin-access.server";

/** GET checkin/statistics?event=<id>: {booked, attended, not_attended} of the event's paid places. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  const { user, db } = await requireCheckinApi(request, context, ["scan_booking", "view_booking"]);
  const eventId = eventIdOf(new URL(request.url).searchParams.get("event"));
  const event = eventId ? await findCheckinEvent(db, user.merchantId, eventId) : undefined;
  if (!event) return apiErrors(request, { event: [eventId ? "checkin.reasons.no_event" : "errors.required"] });
  return apiJson(await bookingStatistics(db, user.merchantId, { eventId: event.id }));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
