import type { Route } from "./+types/booking-email";
import { resendBookingMail } from "../../domain/bookings.server";
import { apiDetail, apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { idOf, requireBookingApi, textOf } from "../../presentation/bookings.server";

/** POST notifications/booking/email {booking_id}: sends the booking e-mail (with its tickets when paid) again. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireBookingApi(request, context, "change_booking");
  const body = await readBody(request);
  const id = idOf(body.booking_id);
  if (!id)
    return apiErrors(request, {
      booking_id: [body.booking_id === undefined ? "errors.required" : "bookings.errors.booking_id"],
    });
  const sent = await resendBookingMail(db, {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    id,
  });
  if (!sent) return apiDetail(request, "api.not_found", 404);
  return apiJson({ message: textOf("bookings.email_sent", lang) });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
