import type { Route } from "./+types/booking-attachment";
import { attachmentName, readAttachment } from "~/domain/payments/attachments.server";
import { bookingAttachment } from "../../domain/booking-list.server";
import { apiDetail, methodNotAllowed } from "~/web/api.server";
import { attachmentResponse, idOf, requireBookingApi } from "../../presentation/bookings.server";

/** GET booking/attachment/{id}: the file the customer attached to the booking, for staff. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db } = await requireBookingApi(request, context, "view_booking");
  const id = idOf(params.id);
  const found = id ? await bookingAttachment(db, user.merchantId, id) : undefined;
  const bytes = found ? await readAttachment(found.key) : null;
  if (!found || !bytes) return apiDetail(request, "api.not_found", 404);
  return attachmentResponse(bytes, found.name ?? attachmentName(found.key));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
