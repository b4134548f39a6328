import type { Route } from "./+types/booking-list";
import { ATTENDANCE, BOOKING_PAGE_SIZES } from "../../domain/booking-filters";
import { BOOKING_FILTER_NAMES, listBookings, parseBookingQuery } from "../../domain/booking-list.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { requireBookingApi, serializeBookingRow } from "../../presentation/bookings.server";

/**
 * GET booking/list: the merchant's bookings matching the list's filters (q, event, ticket, email,
 * customer_phone, full_name, event_date, created_after, created_before, attendance) with page and
 * page_size (10, 50, 100 or all); answers {count, results}. OPTIONS: the filters and page sizes.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireBookingApi(request, context, "view_booking");
  if (request.method === "OPTIONS") {
    return apiJson({
      filters: BOOKING_FILTER_NAMES,
      attendance: ATTENDANCE,
      page_sizes: [...BOOKING_PAGE_SIZES, "all"],
    });
  }
  const query = parseBookingQuery(new URL(request.url).searchParams);
  if (Object.keys(query.errors).length)
    return apiErrors(request, Object.fromEntries(Object.entries(query.errors).map(([field, key]) => [field, [key]])));
  const list = await listBookings(db, {
    merchantId: user.merchantId,
    filters: query.filters,
    page: query.page,
    pageSize: query.pageSize,
  });
  return apiJson({ count: list.count, results: list.rows.map((row) => serializeBookingRow(row, lang)) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
