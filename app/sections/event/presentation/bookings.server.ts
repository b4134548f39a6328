import type { RouterContextProvider } from "react-router";
import type { OperationOutcome } from "~/domain/payments/operations.server";
import type { SessionUser } from "~/domain/identity/users.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import { formatListDateTime } from "~/lib/format";
import { describe } from "~/presentation/texts.server";
import { messageOf } from "~/web/outcomes.server";
import { apiDetail, apiJson, apiLanguage, requireApiPermission, requireApiUser, userOnPlugin } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { attachmentDisposition } from "~/web/file-response.server";
import { contentTypeOf } from "~/domain/payments/attachments.server";
import type { BookingListRow } from "../domain/booking-list.server";

type Context = Readonly<RouterContextProvider>;

/** Where the bookings API lives. */
export const BOOKINGS_API = "/api/v1/plugins/event";

/**
 * The bearer (or Api-Key) user of the bookings API with a permission; a merchant without the
 * events section's feature answers 404, as if it did not exist.
 */
export async function requireBookingApi(
  request: Request,
  context: Context,
  permission: "view_booking" | "add_booking" | "change_booking",
  feature: "bookings" | "create" = "bookings",
) {
  const { user: person } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, person.merchantId), "event", feature))
    throw apiDetail(request, "api.not_found", 404);
  const user = userOnPlugin(person, "event");
  if (!user) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  return { user: user as SessionUser, db, lang: apiLanguage(request) };
}

/** A positive integer id from the path or a field, or null. */
export function idOf(value: unknown) {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** A refusal's field errors in DRF's shape, in the reader's language, with its values (places left, the most per booking). */
export function refusalErrors(errors: Record<string, string[]>, params: TextParams | undefined, lang: Language) {
  return Object.fromEntries(
    Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => describe(key, params, lang))]),
  );
}

/** A refusal of the booking core as the API answers it: 404 for a booking not the merchant's, else 400 with field errors. */
export function refusalAnswer(errors: Record<string, string[]>, params: TextParams | undefined, lang: Language) {
  if (errors.non_field_errors?.includes("api.not_found"))
    return { status: 404, body: { detail: describe("api.not_found", undefined, lang) } };
  return { status: 400, body: refusalErrors(errors, params, lang) };
}

export function apiRefusal(errors: Record<string, string[]>, params: TextParams | undefined, lang: Language) {
  const answer = refusalAnswer(errors, params, lang);
  return apiJson(answer.body, answer.status);
}

/** A message in the reader's language. */
export function textOf(key: string, lang: Language, params?: TextParams) {
  return describe(key, params, lang);
}

/** What each refund of a canceled booking came to, in the reader's language (sent, waiting for approval, refused). */
export function refundMessages(refunds: readonly OperationOutcome[], lang: Language) {
  return refunds.map((refund) => ({ ok: refund.ok, message: messageOf(refund, lang) }));
}

/** A row of the bookings list as the API answers it. */
export function serializeBookingRow(row: BookingListRow, lang: Language) {
  return {
    id: row.id,
    event: lang === "ar" ? row.event_title_ar : row.event_title_en,
    event_id: row.event_id,
    event_date: row.event_date,
    created: row.created_at,
    email: row.email,
    customer_first_name: row.customer_first_name,
    customer_last_name: row.customer_last_name,
    full_name: [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" "),
    customer_phone: row.customer_phone,
    quantity: row.quantity,
    is_free: row.is_free,
    purchase_type: row.is_free ? "free" : "paid",
    current_ticket: row.ticket_id,
    paid_places: row.paid,
    scanned_places: row.scanned,
    extra: row.extra,
    attachment_url: row.has_attachment ? `${BOOKINGS_API}/booking/attachment/${row.id}` : null,
  };
}

/** A row of the bookings list as the page shows it. */
export function presentBookingRow(row: BookingListRow, lang: Language) {
  return {
    id: row.id,
    event: lang === "ar" ? row.event_title_ar : row.event_title_en,
    quantity: row.quantity,
    fullName: [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" "),
    isFree: row.is_free,
    email: row.email,
    eventDate: row.event_date,
    created: formatListDateTime(row.created_at, lang),
    phone: row.customer_phone,
    extra: row.extra,
  };
}

/** A booking's attached file, for staff to download. */
export function attachmentResponse(bytes: Uint8Array, name: string) {
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": contentTypeOf(bytes),
      "Content-Disposition": attachmentDisposition(name),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
