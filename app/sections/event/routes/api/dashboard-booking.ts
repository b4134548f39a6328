import type { Route } from "./+types/dashboard-booking";
import { BookingSchema } from "../../domain/booking-schema";
import { createBooking } from "../../domain/bookings.server";
import { bookingOptions } from "../../presentation/booking-create.server";
import { apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { idOf, refusalAnswer, refusalErrors, requireBookingApi } from "../../presentation/bookings.server";

/**
 * POST dashboard/booking: staff book places for a customer ({event: id, ticket, event_date,
 * quantity, email, names, customer_phone, extra, gateway_code}); answers 201 {id, uuid, state,
 * checkout_url} (the pay link to give the customer of a paid booking). OPTIONS (?event=id): the
 * event's gateways, the merchant's country_code and the event's fields.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireBookingApi(request, context, "add_booking", "create");
  const body = await readBody(request);
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "event.booking.create", body },
    async () => {
      const parsed = BookingSchema.safeParse({
        ...body,
        event: typeof body.event === "number" ? String(body.event) : body.event,
      });
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues)
          (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
        return { status: 400, body: refusalErrors(errors, undefined, lang) };
      }
      if (!idOf(parsed.data.event))
        return { status: 400, body: refusalErrors({ event: ["event.errors.event"] }, undefined, lang) };
      const outcome = await createBooking(db, {
        request: parsed.data,
        merchantId: user.merchantId,
        actor: { id: user.id, username: user.username },
        lang,
        baseUrl: linkBaseUrl(),
      });
      if (!outcome.ok) return refusalAnswer(outcome.errors, outcome.params, lang);
      return { status: 201, body: outcome.booking };
    },
  );
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireBookingApi(request, context, "add_booking", "create");
  if (request.method !== "OPTIONS") return methodNotAllowed(request);
  const eventId = idOf(new URL(request.url).searchParams.get("event"));
  const options = await bookingOptions(db, user.merchantId, eventId, lang);
  if (eventId && !options.event) return apiErrors(request, { event: ["event.errors.event"] });
  return apiJson({ gateways: options.gateways, country_code: options.countryCode, fields: options.fields });
}
