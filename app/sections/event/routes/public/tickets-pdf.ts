import type { Route } from "./+types/tickets-pdf";
import { isLanguage } from "~/lib/i18n";
import { attachmentDisposition } from "~/web/file-response.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { renderTicketsPdf } from "../../presentation/tickets-pdf.server";

/** The booking's tickets as a PDF download, for whoever holds the booking's link (its uuid is the key). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const tickets = await renderTicketsPdf(getDbFrom(context), Number(params.bookingId), params.uuid, lang);
  if (!tickets) notFound();
  return new Response(Buffer.from(tickets.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": attachmentDisposition(tickets.fileName),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Robots-Tag": "noindex",
    },
  });
}
