import type { Route } from "./+types/poster";
import { isLanguage } from "~/lib/i18n";
import { attachmentDisposition } from "~/web/file-response.server";
import { notFound } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { getCollector } from "../domain/collectors.server";
import { renderCollectorPoster } from "../presentation/poster-pdf.server";
import { guardCollectorPage } from "../presentation/guard.server";

/** A collector's QR poster for a shop counter, as an A4 PDF in `?language=` (en or ar; the page's by default). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang } = await guardCollectorPage(context, request, params, "collectors");
  const id = /^\d{1,10}$/.test(params.id) ? Number(params.id) : notFound();
  const db = getDbFrom(context);
  const collector = await getCollector(db, auth.user.merchantId, id);
  if (!collector) notFound();
  const asked = new URL(request.url).searchParams.get("language");
  const posterLang = isLanguage(asked) ? asked : lang;
  const poster = await renderCollectorPoster(db, collector, posterLang, linkBaseUrl());
  return new Response(Buffer.from(poster.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(poster.pdf.byteLength),
      "Content-Disposition": attachmentDisposition(poster.fileName),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
