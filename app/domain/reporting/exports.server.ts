import { DateTime } from "luxon";
import { writeTransaction, type DB } from "~/db/database.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { createNotifications } from "~/domain/messaging/notifications.server";
import { OTHER_FIELDS, loadTableFields } from "~/domain/transactions/fields.server";
import { nowIso } from "~/lib/clock.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { enqueueJob } from "~/lib/jobs.server";
import { localStorage, REPORTS_PREFIX, storage, type StoredFile } from "~/lib/storage.server";
import { texts } from "~/lib/texts.server";
import { word } from "~/lib/outcome";

/** Dashboard spec §9: csv and xls; "xls" is answered with an XLSX workbook. */
export const EXPORT_FORMATS = ["csv", "xls"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_TYPES = ["default", "selected"] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];
/** The all-transactions list; every other export section is a transaction section key. */
export const ALL_SECTIONS = "all";

export const EXPORT_JOB = "export_report";
const MAX_QUERY_LENGTH = 2000;

export type ExportField = { name: string; label: string; label_en: string; label_ar: string };
export type ExportConfig = {
  builtin_fields: ExportField[];
  custom_fields: ExportField[];
  other_fields: ExportField[];
  /** The fields of a "default" export: the section's active list columns, in their order. */
  default: string[];
};

/** The transactions a section's export reads: its own ("all" spans every section). */
export function exportScopeOf(merchantId: number, section: string) {
  return { merchantId, plugin: section === ALL_SECTIONS ? undefined : section, deleted: false };
}

/**
 * The fields a section's export may hold, by name: its columns (built-in, then the section's own)
 * and the other fields; and those of a "default" export, its active columns in their order.
 */
export async function exportFieldNames(
  db: DB,
  merchantId: number,
  section: string,
  sectionFields: readonly string[] = [],
) {
  const columns = await loadTableFields(db, merchantId, section, sectionFields);
  return {
    known: [...columns.map((field) => field.name), ...OTHER_FIELDS],
    default: columns.filter((field) => field.is_active).map((field) => field.name),
  };
}

export type ExportRequest = {
  merchantId: number;
  user: { id: number; username: string } & PermissionHolder;
  /** A transaction section key or "all". */
  section: string;
  /** The section's own columns (app/sections). */
  sectionFields?: readonly string[];
  /** The list's query string: its filters apply to the export. */
  query: string;
  fileFormat: string;
  exportType: string;
  fields?: string[];
  language: string;
  ip?: string | null;
};

export type ExportRequestResult =
  | { ok: true; id: number }
  | { ok: false; error: "forbidden" }
  | { ok: false; error: "invalid"; errors: Record<string, string> };

/** Exporting is reading every matching row at once: it takes the right to see them and the export right. */
export function canExport(user: PermissionHolder) {
  return can(user, "view_paymenttransaction") && can(user, "view_export_settings");
}

/** The list's query without what only pages it; filters stay. */
function exportQuery(query: string) {
  const params = new URLSearchParams(query.replace(/^\?/, ""));
  for (const name of ["page", "per_page", "export_error"]) params.delete(name);
  return params.toString();
}

/** Several names given repeated or comma-joined. */
export function splitFieldNames(values: readonly string[]) {
  return [
    ...new Set(
      values
        .flatMap((value) => value.split(","))
        .map((value) => value.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Asks for an export: checks the request, records it as a queued report and queues the job that
 * builds the file. Errors are translation keys by field.
 */
export async function requestExport(db: DB, request: ExportRequest): Promise<ExportRequestResult> {
  if (!canExport(request.user)) return { ok: false, error: "forbidden" };
  const errors: Record<string, string> = {};
  if (
    request.section !== ALL_SECTIONS &&
    !hasFeature(await loadAvailableSections(db, request.merchantId), request.section, "transactions")
  ) {
    errors.section = "exports.errors.unknown_section";
  }
  if (!(EXPORT_FORMATS as readonly string[]).includes(request.fileFormat))
    errors.file_format = "exports.errors.unknown_format";
  if (!(EXPORT_TYPES as readonly string[]).includes(request.exportType))
    errors.export_type = "exports.errors.unknown_type";
  if (!isLanguage(request.language)) errors.language = "exports.errors.unknown_language";
  if (request.query.length > MAX_QUERY_LENGTH) errors.query = "exports.errors.query_too_long";
  if (Object.keys(errors).length > 0) return { ok: false, error: "invalid", errors };

  const language = request.language as Language;
  const names = await exportFieldNames(db, request.merchantId, request.section, request.sectionFields);
  let fields: string[];
  if (request.exportType === "default") {
    fields = names.default;
    if (fields.length === 0)
      return { ok: false, error: "invalid", errors: { fields: "exports.errors.no_default_fields" } };
  } else {
    fields = splitFieldNames(request.fields ?? []);
    const known = new Set(names.known);
    if (fields.length === 0) return { ok: false, error: "invalid", errors: { fields: "exports.errors.no_fields" } };
    if (fields.some((name) => !known.has(name)))
      return { ok: false, error: "invalid", errors: { fields: "exports.errors.unknown_field" } };
  }

  const format = request.fileFormat as ExportFormat;
  const created = nowIso();
  // Filters are a search: without the right, the export has the whole list, as the page shows it.
  const query = can(request.user, "search_paymenttransaction") ? exportQuery(request.query) : "";
  const id = await db.transaction().execute(async (trx) => {
    const report = await trx
      .insertInto("reports")
      .values({
        merchant_id: request.merchantId,
        user_id: request.user.id,
        user_name: request.user.username,
        section: request.section,
        file_format: format,
        language,
        query,
        fields: fields.join(","),
        state: "queued",
        file_name: reportFileName(request.section, format, created, query),
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueJob(trx, EXPORT_JOB, { reportId: report.id }, { maxAttempts: 3 });
    await recordAudit(trx, {
      merchantId: request.merchantId,
      actor: request.user,
      action: "export_requested",
      params: {
        section: word(request.section === ALL_SECTIONS ? "shell.all_transactions" : `sections.${request.section}`),
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

/**
 * A file name that says what is in the file: the list, its main filters and when it was asked
 * for, in Kuwait time, e.g. payment-request_paid_2026-11-01_2026-11-24_20261124-1405.xlsx. Only
 * ASCII letters, digits, "-" and "_": it survives every browser, mail client and file system.
 */
export function reportFileName(section: string, format: ExportFormat, createdAt: string, query = "") {
  const stamp = DateTime.fromISO(createdAt, { zone: "utc" }).setZone(DISPLAY_ZONE).toFormat("yyyyMMdd-HHmm");
  const list = section === ALL_SECTIONS ? "transactions" : section;
  const parts = [list, ...fileNameFilters(query)].map(asciiPart).filter(Boolean);
  let name = parts.join("_");
  if (name.length > 120) name = name.slice(0, 120).replace(/[-_]+$/, "");
  return `${name}_${stamp}.${format === "csv" ? "csv" : "xlsx"}`;
}

/** The filters a file name carries: states, gateways, currencies and the created dates; any other filter as "filtered". */
function fileNameFilters(query: string) {
  const params = new URLSearchParams(query);
  const values = (name: string) =>
    params
      .getAll(name)
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter(Boolean);
  // A bare date is a Kuwait day already; an instant is shown as the Kuwait day it falls on.
  const day = (value: string | null) => {
    const text = value?.trim();
    if (!text) return null;
    const time = /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? DateTime.fromISO(text, { zone: DISPLAY_ZONE })
      : DateTime.fromISO(text, { setZone: true }).setZone(DISPLAY_ZONE);
    return time.isValid ? time.toFormat("yyyy-LL-dd") : null;
  };
  const parts = [
    values("state").join("-"),
    values("gateway_code").join("-"),
    values("currency_code").join("-").toLowerCase(),
  ];
  const from = day(params.get("created_after"));
  const to = day(params.get("created_before"));
  if (from && to) parts.push(from, to);
  else if (from) parts.push(`from-${from}`);
  else if (to) parts.push(`to-${to}`);
  const named = new Set(["state", "gateway_code", "currency_code", "created_after", "created_before"]);
  if ([...params.entries()].some(([name, value]) => !named.has(name) && value.trim() !== "")) parts.push("filtered");
  return parts;
}

function asciiPart(value: string) {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xls: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * A report's file, by the path its row keeps: a storage key (reports/<merchant>/<report>/<file>),
 * or, for a report made before reports moved to storage, a path under REPORTS_DIR
 * (<merchant>/<report>-<file>). Those are read from this instance's folder first, then from the
 * configured storage under reports/, where copying REPORTS_DIR as it is puts them.
 */
export async function openReportFile(filePath: string): Promise<StoredFile | null> {
  if (filePath.startsWith(REPORTS_PREFIX)) return storage().open(filePath);
  const key = `${REPORTS_PREFIX}${filePath}`;
  const local = await localStorage.open(key);
  if (local || storage() === localStorage) return local;
  return storage().open(key);
}

// --- Report lifecycle -------------------------------------------------------------------------

export type ReportToRun = {
  id: number;
  merchant_id: number;
  user_id: number | null;
  user_name: string;
  section: string;
  file_format: ExportFormat;
  language: string;
  query: string;
  fields: string;
  file_name: string | null;
  created_at: string;
};

/**
 * Takes a queued report to build: marks it running from the start. Done or failed: a repeated job
 * has nothing left to do (undefined). Running: the worker stopped half-way; it starts again.
 */
export async function startReport(db: DB, reportId: number): Promise<ReportToRun | undefined> {
  const report = await db
    .selectFrom("reports")
    .select([
      "id",
      "merchant_id",
      "user_id",
      "user_name",
      "section",
      "file_format",
      "language",
      "query",
      "fields",
      "state",
      "file_name",
      "created_at",
    ])
    .where("id", "=", reportId)
    .executeTakeFirst();
  if (!report || report.state === "done" || report.state === "failed") return undefined;
  await db
    .updateTable("reports")
    .set({ state: "running", rows_done: 0, rows_total: null, error: null })
    .where("id", "=", report.id)
    .execute();
  return report;
}

export async function reportProgress(db: DB, reportId: number, progress: { rows_total?: number; rows_done?: number }) {
  await db.updateTable("reports").set(progress).where("id", "=", reportId).execute();
}

/**
 * The report's file is written: the report is done, the user who asked is told, and it is audited,
 * in one transaction, so nobody ever reads a done report whose notice is not there yet. The live
 * message goes out once that commits.
 */
export async function finishReport(
  db: DB,
  report: ReportToRun,
  file: { key: string; fileName: string; rows: number; bytes: number },
) {
  await writeTransaction(db, async (trx) => {
    await trx
      .updateTable("reports")
      .set({
        state: "done",
        rows_done: file.rows,
        rows_total: file.rows,
        file_path: file.key,
        file_name: file.fileName,
        file_size: file.bytes,
        finished_at: nowIso(),
      })
      .where("id", "=", report.id)
      .execute();
    await tell(trx, report, "report_exported", { file: file.fileName, rows: file.rows });
  });
}

/** A report still being made is failed, and the user who asked is told, together; one already finished stays as it is. */
export async function failReport(db: DB, report: ReportToRun, fileName: string, message: string) {
  await writeTransaction(db, async (trx) => {
    const failed = await trx
      .updateTable("reports")
      .set({ state: "failed", error: message.slice(0, 1000), finished_at: nowIso() })
      .where("id", "=", report.id)
      .where("state", "in", ["queued", "running"])
      .executeTakeFirst();
    if (Number(failed.numUpdatedRows) === 1)
      await tell(trx, report, "report_failed", { file: fileName, message: message.slice(0, 200) });
  });
}

// --- Work a stopped worker left behind ---------------------------------------------------------

/**
 * A report's file name and its storage key. A report has a folder of its own, so one report's
 * leftovers are never taken for another's.
 */
export function reportFileOf(
  report: Pick<ReportToRun, "id" | "merchant_id" | "section" | "file_format" | "file_name" | "created_at">,
) {
  const fileName = report.file_name ?? reportFileName(report.section, report.file_format, report.created_at);
  return { fileName, key: `${REPORTS_PREFIX}${report.merchant_id}/${report.id}/${fileName}` };
}

/** The report a report file's key belongs to, in either layout (<merchant>/<report>/<file>, or <merchant>/<report>-<file> before). */
function reportIdOfKey(key: string) {
  const match = /^reports\/\d+\/(\d+)[/-]/.exec(key);
  return match ? Number(match[1]) : null;
}

const REPORT_TO_RUN_COLUMNS = [
  "id",
  "merchant_id",
  "user_id",
  "user_name",
  "section",
  "file_format",
  "language",
  "query",
  "fields",
  "file_name",
  "created_at",
] as const;

async function abandonReport(db: DB, report: ReportToRun) {
  const { fileName, key } = reportFileOf(report);
  await storage().removeIncomplete(key);
  const language: Language = isLanguage(report.language) ? report.language : "en";
  await failReport(db, report, fileName, texts().line("reports.worker_stopped", {}, language));
}

/**
 * The export job was given up while its report was still being made (its worker stopped during
 * its last attempt): the report fails at once, rather than show "running" for ever.
 */
export async function abandonExport(db: DB, payload: { reportId: number }) {
  const report = await db
    .selectFrom("reports")
    .select(REPORT_TO_RUN_COLUMNS)
    .where("id", "=", payload.reportId)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  if (report) await abandonReport(db, report);
}

/**
 * At a worker's start: reports still queued or running that no job will make any more fail, and
 * partial files of reports no longer being made are removed (also from this instance's folder
 * when reports have since moved to a bucket). A report whose job is queued or
 * running (on any instance) is left to it; the job clears its own partial files when it starts.
 */
export async function recoverInterruptedExports(db: DB) {
  // Reports first, then jobs: a report asked for in between is not among them (its job comes with it).
  const unfinished = await db
    .selectFrom("reports")
    .select(REPORT_TO_RUN_COLUMNS)
    .where("state", "in", ["queued", "running"])
    .execute();
  // Any job still to run that makes a report: the transaction exports' and the sections' own (a bookings export).
  const jobs = await db
    .selectFrom("jobs")
    .select("payload")
    .where("status", "in", ["queued", "running"])
    .where("payload", "like", '%"reportId"%')
    .execute();
  const made = new Set(jobs.map((job) => Number((JSON.parse(job.payload) as { reportId?: unknown }).reportId)));
  for (const report of unfinished) if (!made.has(report.id)) await abandonReport(db, report);

  for (const files of new Set([storage(), localStorage])) {
    const partial = (await files.listIncomplete(REPORTS_PREFIX)).flatMap((key) => {
      const reportId = reportIdOfKey(key);
      return reportId === null ? [] : [{ key, reportId }];
    });
    if (partial.length === 0) continue;
    const beingMade = await db
      .selectFrom("reports")
      .select("id")
      .where("id", "in", [...new Set(partial.map((file) => file.reportId))])
      .where("state", "in", ["queued", "running"])
      .execute();
    const keep = new Set(beingMade.map((report) => report.id));
    for (const file of partial) if (!keep.has(file.reportId)) await files.removeIncomplete(file.key);
  }
}

async function tell(
  db: DB,
  report: ReportToRun,
  kind: "report_exported" | "report_failed",
  params: { file: string; rows?: number; message?: string },
) {
  const language: Language = isLanguage(report.language) ? report.language : "en";
  await recordAudit(db, {
    merchantId: report.merchant_id,
    actor: report.user_id === null ? "system" : { id: report.user_id, username: report.user_name },
    action: kind === "report_exported" ? "export_finished" : "export_failed",
    params,
    objectType: "report",
    objectId: report.id,
  });
  if (report.user_id === null) return;
  await createNotifications(db, {
    merchantId: report.merchant_id,
    userIds: [report.user_id],
    kind,
    lang: language,
    link: `/${language}/generated-reports?id=${report.id}`,
  });
}

// --- Generated reports ------------------------------------------------------------------------

const REPORT_COLUMNS = [
  "id",
  "user_name",
  "section",
  "query",
  "file_format",
  "language",
  "state",
  "rows_total",
  "rows_done",
  "file_name",
  "file_size",
  "error",
  "created_at",
  "finished_at",
] as const;

/** The merchant's reports, newest first. */
export async function listReports(db: DB, merchantId: number, options: { limit: number; offset: number }) {
  const rows = await db
    .selectFrom("reports")
    .select(REPORT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const { count } = await db
    .selectFrom("reports")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return { rows, count: Number(count) };
}

export type ReportSummary = Awaited<ReturnType<typeof listReports>>["rows"][number];

export async function findReport(db: DB, merchantId: number, id: number) {
  return db
    .selectFrom("reports")
    .select(REPORT_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * A finished report's file to send, or why not. Every download is written to the audit log.
 */
export async function openReportDownload(
  db: DB,
  input: { merchantId: number; user: { id: number; username: string }; id: number; ip?: string | null },
) {
  const report = await db
    .selectFrom("reports")
    .select(["id", "state", "file_format", "file_path", "file_name", "file_size", "rows_total", "rows_done"])
    .where("merchant_id", "=", input.merchantId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  if (!report) return { ok: false as const, reason: "not_found" as const };
  if (report.state !== "done" || !report.file_path || !report.file_name) {
    return {
      ok: false as const,
      reason: "not_ready" as const,
      state: report.state,
      rows_done: report.rows_done,
      rows_total: report.rows_total,
    };
  }
  const file = await openReportFile(report.file_path);
  if (!file) return { ok: false as const, reason: "not_found" as const };
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.user,
    action: "report_downloaded",
    params: { file: report.file_name },
    objectType: "report",
    objectId: report.id,
    ip: input.ip,
  });
  return {
    ok: true as const,
    fileName: report.file_name,
    contentType: CONTENT_TYPES[report.file_format],
    size: file.size,
    open: file.stream,
  };
}

/** The file names of some of the merchant's reports, by id. */
export async function reportFileNames(db: DB, merchantId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .selectFrom("reports")
    .select(["id", "file_name"])
    .where("merchant_id", "=", merchantId)
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.flatMap((row) => (row.file_name ? [[row.id, row.file_name] as const] : [])));
}
