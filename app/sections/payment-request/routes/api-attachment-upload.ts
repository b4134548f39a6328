import type { Route } from "./+types/api-attachment-upload";
import { ATTACHMENT_MAX_BYTES, attachmentName, storeAttachment } from "~/domain/payments/attachments.server";
import { apiErrors, apiJson, methodNotAllowed, requireApiPermission } from "~/web/api.server";
import { requireTransactionSection } from "~/sections/transaction-api.server";

/**
 * POST multipart with a `file`: keeps it and answers {file_url, original_filename}; the file_url
 * is then given as `attachment` when creating the payment request.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireTransactionSection(request, context, "payment_request");
  requireApiPermission(request, user, "add_paymenttransaction");
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
