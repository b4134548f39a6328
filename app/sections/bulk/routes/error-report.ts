import type { Route } from "./+types/error-report";
import { attachmentDisposition } from "~/web/file-response.server";
import { notFound } from "~/web/guards.server";
import { loadErrorReport } from "../domain/error-reports.server";
import { requireBulkPage } from "../presentation/bulk-access.server";

/** An upload's error report, as a CSV download (one byte-order mark, so that Excel reads its Arabic). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { db, merchantId } = await requireBulkPage(context, request, params);
  const report = await loadErrorReport(db, merchantId, params.token);
  if (!report) notFound();
  // The report is kept as toCsv wrote it, its byte-order mark included.
  const body = Buffer.from(report.content.startsWith("\ufeff") ? report.content : `\ufeff${report.content}`, "utf8");
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Length": String(body.length),
      "Content-Disposition": attachmentDisposition(`${report.file_name.replace(/\.(csv|xlsx)$/i, "")}-errors.csv`),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
