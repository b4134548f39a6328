import type { Route } from "./+types/booking-upload";
import { ATTACHMENT_MAX_BYTES, attachmentName, storeAttachment } from "~/domain/payments/attachments.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { requireBookingApi } from "../../presentation/bookings.server";

/**
 * POST booking/upload (multipart: file, ticket, event_date): keeps a file for a booking about to be
 * made and answers {file_url, original_filename}; the file_url is then given as the attachment
 * field's answer in the booking's `extra`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireBookingApi(request, context, "add_booking", "create");
  if (Number(request.headers.get("Content-Length") ?? 0) > ATTACHMENT_MAX_BYTES + 64 * 1024) {
    return apiErrors(request, { file: ["attachment.errors.too_large"] }, 413);
  }
  let file: FormDataEntryValue | null = null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return apiErrors(request, { file: ["attachment.errors.unknown"] });
  }
  if (!(file instanceof File)) return apiErrors(request, { file: ["errors.required"] });
  const stored = await storeAttachment(user.merchantId, file);
  if (!stored.ok) return apiErrors(request, { file: [stored.error] });
  return apiJson({ file_url: stored.key, original_filename: attachmentName(stored.key) }, 201);
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
