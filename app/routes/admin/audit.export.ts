import { DateTime } from "luxon";
import type { Route } from "./+types/audit.export";
import { iterateAuditEntries, readAuditQuery, type AuditViewerRow } from "~/domain/audit/audit-viewer.server";
import { now } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { auditActionTitles as actionTitles, auditActor, describeAuditEntry } from "~/presentation/audit.server";
import { neutraliseCell } from "~/presentation/report-files.server";
import { attachmentDisposition } from "~/web/file-response.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

const COLUMNS = ["time", "user", "action", "text", "ip"] as const;

/** RFC 4180: quoted when it holds a quote, a comma or a line break; quotes doubled. A cell a spreadsheet would run as a formula starts with an apostrophe. */
function csvCell(value: string) {
  const safe = neutraliseCell(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvLine(cells: readonly string[]) {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function entryLine(entry: AuditViewerRow, lang: Language, titles: Map<string, string>) {
  const time = DateTime.fromISO(entry.created_at, { zone: "utc" })
    .setZone(DISPLAY_ZONE)
    .toFormat("yyyy-LL-dd HH:mm:ss");
  // An older entry's code without a title is written as the code, not as its text a second time.
  return csvLine([
    time,
    auditActor(entry, lang),
    titles.get(entry.action) ?? entry.action,
    describeAuditEntry(entry, lang),
    entry.ip ?? "",
  ]);
}

/**
 * The entries the audit page shows with the same filters, all of them, as CSV in the reader's
 * language: UTF-8 with a BOM (so Excel reads Arabic), times in Kuwait, streamed batch by batch.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const t = translator(lang);
  const db = getDbFrom(context);
  const merchantId = auth.user.merchantId;
  const query = await readAuditQuery(db, merchantId, new URL(request.url).searchParams);
  const refused = Object.values(query.errors);
  // A file with fewer filters than were asked for would pass for the entries that were asked for.
  if (refused.length) {
    return new Response(`${refused.map((key) => t(key)).join("\n")}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }

  const titles = actionTitles(lang);
  const encoder = new TextEncoder();
  const batches = iterateAuditEntries(db, merchantId, query.filters);
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(
          encoder.encode(`\uFEFF${csvLine(COLUMNS.map((column) => t(`admin.audit.columns.${column}`)))}`),
        );
        return;
      }
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map((entry) => entryLine(entry, lang, titles)).join("")));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const day = DateTime.fromJSDate(now()).setZone(DISPLAY_ZONE).toFormat("yyyy-LL-dd");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachmentDisposition(`audit-log-${day}.csv`),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
