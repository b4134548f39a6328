import type { Route } from "./+types/booking-statistics";
import { bookingStatistics, parseBookingQuery } from "../../domain/booking-list.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { requireBookingApi } from "../../presentation/bookings.server";

/** GET booking_statistics: the list's tiles — booked, attended, not_attended places — for `event` and the list's other filters. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db } = await requireBookingApi(request, context, "view_booking");
  const query = parseBookingQuery(new URL(request.url).searchParams);
  if (Object.keys(query.errors).length)
    return apiErrors(request, Object.fromEntries(Object.entries(query.errors).map(([field, key]) => [field, [key]])));
  return apiJson(await bookingStatistics(db, user.merchantId, query.filters));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
