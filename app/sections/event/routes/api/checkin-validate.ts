import type { Route } from "./+types/checkin-validate";
import { OTHER_DATE_PERMISSION, validateScan } from "../../domain/checkin.server";
import { scanAnswer } from "../../presentation/checkin.server";
import { can } from "~/domain/identity/permissions";
import { apiDetail, apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { clientAddressContext } from "~/web/request-context.server";
import { eventIdOf, requireCheckinApi } from "./checkin-access.server";

/**
 * POST validate_qr_code {event_id, qrcode}: the QR's content or a place's number typed by staff.
 * 200 {qr_number, customer_first_name, customer_last_name, slot, ticket} when the place is admitted
 * now; 400 {qrcode: [reason], code, scanned_at?} otherwise (already used, another date's, another
 * event's, not paid, unknown). `allow_other_date: true` lets a ticket of another date in: it takes
 * admit_other_date_booking (403 without it) and is audited.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireCheckinApi(request, context, ["scan_booking"]);
  const body = await readBody(request);
  const eventId = eventIdOf(body.event_id);
  const code = typeof body.qrcode === "string" ? body.qrcode.trim() : "";
  const errors: Record<string, string[]> = {};
  if (!eventId) errors.event_id = ["errors.required"];
  if (!code) errors.qrcode = ["errors.required"];
  else if (code.length > 200) errors.qrcode = ["errors.too_long"];
  if (!eventId || Object.keys(errors).length) return apiErrors(request, errors);
  const anyDate = body.allow_other_date === true || body.allow_other_date === "true";
  if (anyDate && !can(user, OTHER_DATE_PERMISSION)) return apiDetail(request, "api.permission_denied", 403);
  const answer = scanAnswer(
    await validateScan(db, {
      merchantId: user.merchantId,
      eventId,
      code,
      actor: user,
      anyDate,
      ip: context.get(clientAddressContext),
    }),
    lang,
  );
  return apiJson(answer.body, answer.status);
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
