import type { Route } from "./+types/booking-export";
import {
  BOOKING_LIST_COLUMNS,
  BOOKING_OTHER_COLUMNS,
  canExportBookings,
  exportExtraFields,
  requestBookingExport,
} from "../../domain/booking-export.server";
import { parseBookingQuery } from "../../domain/booking-list.server";
import { translator } from "~/lib/i18n.server";
import { isLanguage } from "~/lib/i18n";
import { apiDetail, apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { clientAddressContext } from "~/web/request-context.server";
import { requireBookingApi } from "../../presentation/bookings.server";

const labelled = (names: readonly string[]) => {
  const en = translator("en");
  const ar = translator("ar");
  return names.map((name) => ({
    name,
    label_en: en(`bookings.columns.${name}`),
    label_ar: ar(`bookings.columns.${name}`),
  }));
};

/**
 * OPTIONS booking/export: what the file holds (builtin_fields: the list's columns; custom_fields:
 * the events' own fields; other_fields). GET with file_format (csv or xls), language and the list's
 * filters: queues the file (Generated reports) and answers 201 {id}.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db } = await requireBookingApi(request, context, "view_booking");
  if (!canExportBookings(user)) return apiDetail(request, "api.permission_denied", 403);
  const url = new URL(request.url);
  if (request.method === "OPTIONS") {
    const extra = await exportExtraFields(db, user.merchantId, parseBookingQuery(url.searchParams).filters.event);
    return apiJson({
      builtin_fields: labelled(BOOKING_LIST_COLUMNS),
      custom_fields: extra.map(({ name, label_en, label_ar }) => ({ name, label_en, label_ar })),
      other_fields: labelled(BOOKING_OTHER_COLUMNS),
      file_formats: ["csv", "xls"],
    });
  }
  const filters = new URLSearchParams(url.searchParams);
  for (const name of ["file_format", "language", "page", "page_size"]) filters.delete(name);
  const language = url.searchParams.get("language");
  const outcome = await requestBookingExport(db, {
    merchantId: user.merchantId,
    user,
    query: filters.toString(),
    fileFormat: url.searchParams.get("file_format") ?? "",
    language: isLanguage(language) ? language : (language ?? "en"),
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) {
    if (outcome.code === "forbidden") return apiDetail(request, "api.permission_denied", 403);
    return apiErrors(request, Object.fromEntries(Object.entries(outcome.errors).map(([field, key]) => [field, [key]])));
  }
  return apiJson({ id: outcome.id }, 201);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
