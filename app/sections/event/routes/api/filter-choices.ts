import type { Route } from "./+types/filter-choices";
import { bookingFilterChoices, FILTER_CHOICE_FIELDS, type FilterChoiceField } from "../../domain/booking-list.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { requireBookingApi } from "../../presentation/bookings.server";

/**
 * GET get-filter-choices?field_name=event&field_value=<typed title>: the merchant's events whose
 * title holds it (the list's autocomplete); field_name=ticket or event_date with the event's id:
 * its tickets or its dates. Answers [{value, display_name}].
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireBookingApi(request, context, "view_booking");
  const url = new URL(request.url);
  const field = url.searchParams.get("field_name") ?? "";
  if (!(FILTER_CHOICE_FIELDS as readonly string[]).includes(field))
    return apiErrors(request, { field_name: ["bookings.errors.field_name"] });
  const choices = await bookingFilterChoices(
    db,
    user.merchantId,
    field as FilterChoiceField,
    url.searchParams.get("field_value") ?? "",
  );
  return apiJson(
    choices.map((choice) => ({ value: choice.value, display_name: lang === "ar" ? choice.title_ar : choice.title_en })),
  );
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
