import type { Route } from "./+types/checkin-validate";
import { validateScan } from "../../domain/checkin.server";
import { scanAnswer } from "../../presentation/checkin.server";
import { apiErrors, apiJson, methodNotAllowed, readBody } from "~/web/api.server";
import { eventIdOf, requireCheckinApi } from "./checkin-access.server";

/**
 * POST validate_qr_code {event_id, qrcode}: the QR's content or a place's number typed by staff.
 * 200 {qr_number, customer_first_name, customer_last_name, slot, ticket} when the place is admitted
 * now; 400 {qrcode: [reason], code, scanned_at?} otherwise (already used, another event's, not paid, unknown).
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
  const answer = scanAnswer(await validateScan(db, { merchantId: user.merchantId, eventId, code, actor: user }), lang);
  return apiJson(answer.body, answer.status);
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
