import type { Route } from "./+types/attachment";
import { attachmentName, contentTypeOf, readAttachment } from "~/domain/payments/attachments.server";
import { findPublicTransaction } from "~/domain/payments/pay-page.server";
import { notFound } from "~/lib/guards.server";
import { getDbFrom } from "~/lib/request-context.server";

/** The request's attachment, for whoever holds the pay link (the link is the secret). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const transaction = await findPublicTransaction(db, params.transactionId);
  if (!transaction) notFound();
  const row = await db.selectFrom("transactions").select("attachment_path").where("id", "=", transaction.id).executeTakeFirstOrThrow();
  if (!row.attachment_path) notFound();
  const bytes = await readAttachment(row.attachment_path);
  if (!bytes) notFound();
  const name = attachmentName(row.attachment_path);
  return new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": contentTypeOf(bytes),
      "Content-Disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
