import type { DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { EXPORT_FORMATS, reportFileName, type ExportFormat } from "~/domain/reporting/exports.server";
import { nowIso } from "~/lib/clock.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { enqueueJob } from "~/lib/jobs.server";
import { word } from "~/lib/outcome";
import { BOOKING_FILTER_NAMES, merchantEventFields, parseBookingQuery } from "./booking-list.server";

/** The reports of the bookings list (Generated reports tells them apart from transaction exports by this). */
export const BOOKINGS_REPORT_SECTION = "event_bookings";
export const BOOKING_EXPORT_JOB = "event_bookings_export";

/** The list's columns, in its order, then what only the file has. */
export const BOOKING_LIST_COLUMNS = [
  "event",
  "quantity",
  "full_name",
  "purchase_type",
  "email",
  "event_date",
  "created",
  "customer_phone",
] as const;
export const BOOKING_OTHER_COLUMNS = ["id", "ticket", "paid_places", "scanned_places"] as const;

export type BookingExportField = { name: string; label_en: string; label_ar: string };

/**
 * The extra fields an export carries, by name: the chosen event's, or (no event chosen) every
 * event's of the merchant, the first label of a name kept.
 */
export async function exportExtraFields(
  db: DB,
  merchantId: number,
  eventId: number | undefined,
): Promise<BookingExportField[]> {
  if (eventId !== undefined)
    return (await merchantEventFields(db, merchantId, eventId)).map(({ name, label_en, label_ar }) => ({
      name,
      label_en,
      label_ar,
    }));
  const rows = await db
    .selectFrom("event_fields")
    .select(["name", "label_en", "label_ar"])
    .where("merchant_id", "=", merchantId)
    .orderBy("event_id")
    .orderBy("position")
    .limit(200)
    .execute();
  const seen = new Map<string, BookingExportField>();
  for (const row of rows) if (!seen.has(row.name)) seen.set(row.name, row);
  return [...seen.values()];
}

export type BookingExportRequest = {
  merchantId: number;
  user: { id: number; username: string } & PermissionHolder;
  /** The list's query string: its filters apply to the file; paging does not. */
  query: string;
  fileFormat: string;
  language: string;
  ip?: string | null;
};

export type BookingExportOutcome =
  | { ok: true; id: number }
  | { ok: false; code: "forbidden" }
  | { ok: false; code: "invalid"; errors: Record<string, string> };

/** Exporting reads every matching booking at once: it takes the right to see them and the export right. */
export function canExportBookings(user: PermissionHolder) {
  return can(user, "view_booking") && can(user, "view_export_settings");
}

/**
 * Asks for a file of the bookings list with its filters, in a language: recorded as a queued report
 * (Generated reports) whose job writes the file.
 */
export async function requestBookingExport(db: DB, request: BookingExportRequest): Promise<BookingExportOutcome> {
  if (!canExportBookings(request.user)) return { ok: false, code: "forbidden" };
  const errors: Record<string, string> = {};
  if (!(EXPORT_FORMATS as readonly string[]).includes(request.fileFormat))
    errors.file_format = "exports.errors.unknown_format";
  if (!isLanguage(request.language)) errors.language = "exports.errors.unknown_language";
  const parsed = parseBookingQuery(new URLSearchParams(request.query));
  Object.assign(errors, parsed.errors);
  if (Object.keys(errors).length) return { ok: false, code: "invalid", errors };
  const query = new URLSearchParams(
    BOOKING_FILTER_NAMES.flatMap((name) =>
      parsed.raw[name] && (name !== "ticket" || parsed.filters.ticket !== undefined) ? [[name, parsed.raw[name]]] : [],
    ),
  ).toString();
  const extra = await exportExtraFields(db, request.merchantId, parsed.filters.event);
  const fields = [...BOOKING_LIST_COLUMNS, ...extra.map((field) => `extra:${field.name}`), ...BOOKING_OTHER_COLUMNS];
  const format = request.fileFormat as ExportFormat;
  const language = request.language as Language;
  const created = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const report = await trx
      .insertInto("reports")
      .values({
        merchant_id: request.merchantId,
        user_id: request.user.id,
        user_name: request.user.username,
        section: BOOKINGS_REPORT_SECTION,
        file_format: format,
        language,
        query,
        fields: fields.join(","),
        state: "queued",
        file_name: reportFileName(BOOKINGS_REPORT_SECTION.replace("_", "-"), format, created, query),
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueJob(trx, BOOKING_EXPORT_JOB, { reportId: report.id }, { maxAttempts: 3 });
    await recordAudit(trx, {
      merchantId: request.merchantId,
      actor: request.user,
      action: "export_requested",
      params: {
        section: word("sections.event_bookings"),
        format: format === "csv" ? "CSV" : "XLSX",
        fields: fields.join(", "),
        filters: query ? ` (${query})` : "",
      },
      objectType: "report",
      objectId: report.id,
      ip: request.ip,
    });
    return report.id;
  });
  return { ok: true, id };
}
