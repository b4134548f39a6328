import type { Route } from "./+types/booking-attachment";
import { attachmentName, readAttachment } from "~/domain/payments/attachments.server";
import { bookingAttachment } from "../domain/booking-list.server";
import { attachmentResponse, idOf } from "../presentation/bookings.server";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/** The booking details' Download attachment: the customer's file, for staff who may see the booking. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "event", "bookings");
  requirePermission(auth, "view_booking");
  const id = idOf(params.id);
  const found = id ? await bookingAttachment(getDbFrom(context), auth.user.merchantId, id) : undefined;
  const bytes = found ? await readAttachment(found.key) : null;
  if (!found || !bytes) notFound();
  return attachmentResponse(bytes, found.name ?? attachmentName(found.key));
}
