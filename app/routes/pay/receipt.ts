import type { Route } from "./+types/receipt";
import { createReceipt } from "~/presentation/receipt-pdf.server";
import { isLanguage } from "~/lib/i18n";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

/** The receipt PDF of a successful payment, for whoever holds the result link (the attempt id is the secret). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const receipt = await createReceipt(getDbFrom(context), params.attemptId, lang);
  if (!receipt) notFound();
  return new Response(Buffer.from(receipt.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${receipt.fileName}"`,
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
      "X-Robots-Tag": "noindex",
    },
  });
}
