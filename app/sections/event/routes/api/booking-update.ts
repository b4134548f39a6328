import type { Route } from "./+types/booking-update";
import {
  bookingView,
  cancelBooking,
  changeBookingEmail,
  changeBookingPlaces,
  serializeBooking,
} from "../../domain/bookings.server";
import { platformAddresses } from "~/web/addresses.server";
import { apiDetail, methodNotAllowed, readBody } from "~/web/api.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { BookingEmailSchema, BookingPlacesSchema, cancelNotice, fieldErrorsOf } from "../../presentation/booking-forms";
import {
  idOf,
  refundMessages,
  refusalAnswer,
  refusalErrors,
  requireBookingApi,
  textOf,
} from "../../presentation/bookings.server";

/**
 * PATCH booking/update/{id}: `{"status": "cancel"}` cancels the booking (places back on sale, paid
 * places refunded through the usual rules); `{"new_email", "resend_email"}` corrects the e-mail;
 * `{"event_date", "quantity", "ticket"}` moves the places and/or adds some. Answers the booking,
 * with `refunds` (cancel) or `checkout_url` (added places to pay). Needs change_booking.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireBookingApi(request, context, "change_booking");
  const id = idOf(params.id);
  if (!id) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  const actor = { id: user.id, username: user.username };
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "event.booking.update", body: { id, body } },
    async () => {
      const answer = async (extra: Record<string, unknown>) => {
        const view = await bookingView(db, user.merchantId, id);
        return { status: 200, body: { ...(view ? serializeBooking(view, lang) : {}), ...extra } };
      };
      if (body.status !== undefined) {
        if (body.status !== "cancel")
          return { status: 400, body: refusalErrors({ status: ["bookings.errors.status"] }, undefined, lang) };
        const outcome = await cancelBooking(db, {
          merchantId: user.merchantId,
          actor: user,
          id,
          addresses: platformAddresses(request),
        });
        if (!outcome.ok) return refusalAnswer(outcome.errors, outcome.params, lang);
        return answer({
          message: textOf(cancelNotice(outcome.refunds), lang),
          refunds: refundMessages(outcome.refunds, lang),
        });
      }
      if (body.new_email !== undefined) {
        const parsed = BookingEmailSchema.safeParse(body);
        if (!parsed.success) return { status: 400, body: refusalErrors(fieldErrorsOf(parsed.error), undefined, lang) };
        const outcome = await changeBookingEmail(db, { merchantId: user.merchantId, actor, id, ...parsed.data });
        if (!outcome.ok) return refusalAnswer(outcome.errors, outcome.params, lang);
        return answer({});
      }
      const parsed = BookingPlacesSchema.safeParse(body);
      if (!parsed.success) return { status: 400, body: refusalErrors(fieldErrorsOf(parsed.error), undefined, lang) };
      const outcome = await changeBookingPlaces(db, {
        merchantId: user.merchantId,
        actor,
        id,
        ...parsed.data,
        lang,
        baseUrl: linkBaseUrl(),
      });
      if (!outcome.ok) return refusalAnswer(outcome.errors, outcome.params, lang);
      return answer({ checkout_url: outcome.checkout_url });
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
