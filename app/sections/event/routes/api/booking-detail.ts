import type { Route } from "./+types/booking-detail";
import { bookingView, serializeBooking } from "../../domain/bookings.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { idOf, requireBookingApi } from "../../presentation/bookings.server";

/** GET booking/list/{id}: the booking of dashboard spec §3, with its items and members; another merchant's is 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, lang } = await requireBookingApi(request, context, "view_booking");
  const id = idOf(params.id);
  const view = id ? await bookingView(db, user.merchantId, id) : undefined;
  if (!view) return apiDetail(request, "api.not_found", 404);
  return apiJson(serializeBooking(view, lang));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
