import type { Route } from "./+types/attachment";
import { contentTypeOf, readTransactionAttachment } from "~/domain/payments/attachments.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/** The request's attachment, for whoever holds the pay link (the link is the secret). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const attachment = await readTransactionAttachment(getDbFrom(context), params.transactionId);
  if (!attachment) notFound();
  const { name, bytes } = attachment;
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": contentTypeOf(bytes),
      "Content-Disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
