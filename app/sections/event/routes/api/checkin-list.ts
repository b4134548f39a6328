import type { Route } from "./+types/checkin-list";
import { checkinList } from "../../domain/checkin.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { eventIdOf, requireCheckinApi } from "./checkin-access.server";

/**
 * GET checkin/list?event=<id>: the event's paid places (number, customer, slot, scanned) signed with
 * the time the list was made, for a device that keeps checking people in when the network is gone.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  const { user, db } = await requireCheckinApi(request, context, ["scan_booking"]);
  const eventId = eventIdOf(new URL(request.url).searchParams.get("event"));
  const list = eventId ? await checkinList(db, user.merchantId, eventId) : undefined;
  if (!list) return apiErrors(request, { event: [eventId ? "checkin.reasons.no_event" : "errors.required"] });
  return apiJson(list);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
