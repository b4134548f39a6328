import type { Route } from "./+types/mailbox.attachment";
import { attachmentsOf, getMail, renderMailAttachment } from "~/domain/messaging/mail.server";
import { attachmentDisposition } from "~/web/file-response.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * A file a mail of the merchant's carries (a booking's tickets), made now as the mail's reader
 * would receive it: how staff see what a customer was sent when no mail server is configured.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "view_outgoing_mail");
  const id = Number(params.mailId);
  const index = Number(params.index);
  if (!Number.isSafeInteger(id) || id < 1 || !Number.isSafeInteger(index) || index < 0) notFound();
  const db = getDbFrom(context);
  const mail = await getMail(db, auth.user.merchantId, id);
  const attachment = mail ? attachmentsOf(mail.attachments)[index] : undefined;
  if (!attachment) notFound();
  const file = await renderMailAttachment(db, attachment);
  if (!file) notFound();
  return new Response(new Uint8Array(file.content), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.content.length),
      "Content-Disposition": attachmentDisposition(attachment.filename),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
