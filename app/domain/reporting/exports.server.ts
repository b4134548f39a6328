import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import { DateTime } from "luxon";
import type { DB } from "~/db/database.server";
import { can, type PermissionHolder } from "~/domain/identity/permissions";
import { SECTIONS, TRANSACTION_SECTIONS } from "~/domain/merchant/sections";
import { createNotification } from "~/domain/messaging/notifications.server";
import { OTHER_FIELDS, isFieldName, loadTableFields, plainValue, type FieldName } from "~/domain/transactions/fields.server";
import { parseListQuery, type TransactionFilters } from "~/domain/transactions/filters";
import { countTransactions, iterateTransactions, type ListScope, type TransactionRow } from "~/domain/transactions/list.server";
import { TRANSACTION_STATES } from "~/domain/payments/states";
import { nowIso } from "~/lib/clock.server";
import { env } from "~/lib/env.server";
import { DISPLAY_ZONE } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { enqueueJob, registerJobHandler } from "~/lib/jobs.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { XlsxWriter } from "./xlsx-writer.server";

/** Dashboard spec §9: csv and xls; "xls" is answered with an XLSX workbook. */
export const EXPORT_FORMATS = ["csv", "xls"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_TYPES = ["default", "selected"] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];
/** The all-transactions list; every other export section is a transaction section key. */
export const ALL_SECTIONS = "all";

export const EXPORT_JOB = "export_report";
const PROGRESS_EVERY_ROWS = 5000;
// Small batches die young in the garbage collector: peak memory stays low at little cost in queries.
const BATCH_SIZE = 500;
const MAX_QUERY_LENGTH = 2000;

export type ExportField = { name: string; label: string; label_en: string; label_ar: string };
export type ExportConfig = {
  builtin_fields: ExportField[];
  custom_fields: ExportField[];
  other_fields: ExportField[];
  /** The fields of a "default" export: the section's active list columns, in their order. */
  default: string[];
};

export function isExportSection(section: string) {
  return section === ALL_SECTIONS || TRANSACTION_SECTIONS.includes(section);
}

/** Section keys name their plugin; "all" spans every plugin. */
function pluginOf(section: string) {
  if (section === ALL_SECTIONS) return undefined;
  return SECTIONS.find((candidate) => candidate.key === section)?.plugin ?? section;
}

/**
 * What can go in a section's export, labelled in both languages (dashboard spec §3 export config).
 * Built-in fields carry the merchant's own column labels. Custom fields are the keys of a
 * transaction's `extra` map; nothing in the platform defines them per merchant yet and reading
 * them off the rows would mean scanning every row, so the list is empty and `extra` (in other
 * fields) exports the whole map.
 */
export async function exportConfig(db: DB, merchantId: number, section: string, lang: Language): Promise<ExportConfig> {
  const tableFields = await loadTableFields(db, merchantId, section);
  const label = (labels: { label_en: string; label_ar: string }) => (lang === "ar" ? labels.label_ar : labels.label_en);
  const builtin = tableFields.map((field) => ({ name: field.name, label_en: field.label_en, label_ar: field.label_ar }));
  const other = OTHER_FIELDS.map((name) => ({ name, label_en: translator("en")(`fields.${name}`), label_ar: translator("ar")(`fields.${name}`) }));
  return {
    builtin_fields: builtin.map((field) => ({ ...field, label: label(field) })),
    custom_fields: [],
    other_fields: other.map((field) => ({ ...field, label: label(field) })),
    default: tableFields.filter((field) => field.is_active).map((field) => field.name),
  };
}

export type ExportRequest = {
  merchantId: number;
  user: { id: number; username: string } & PermissionHolder;
  /** A transaction section key or "all". */
  section: string;
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
  return [...new Set(values.flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean))];
}

/**
 * Asks for an export: checks the request, records it as a queued report and queues the job that
 * builds the file. Errors are translation keys by field.
 */
export async function requestExport(db: DB, request: ExportRequest): Promise<ExportRequestResult> {
  if (!canExport(request.user)) return { ok: false, error: "forbidden" };
  const errors: Record<string, string> = {};
  if (!isExportSection(request.section)) errors.section = "exports.errors.unknown_section";
  if (!(EXPORT_FORMATS as readonly string[]).includes(request.fileFormat)) errors.file_format = "exports.errors.unknown_format";
  if (!(EXPORT_TYPES as readonly string[]).includes(request.exportType)) errors.export_type = "exports.errors.unknown_type";
  if (!isLanguage(request.language)) errors.language = "exports.errors.unknown_language";
  if (request.query.length > MAX_QUERY_LENGTH) errors.query = "exports.errors.query_too_long";
  if (Object.keys(errors).length > 0) return { ok: false, error: "invalid", errors };

  const language = request.language as Language;
  const config = await exportConfig(db, request.merchantId, request.section, language);
  let fields: string[];
  if (request.exportType === "default") {
    fields = config.default;
    if (fields.length === 0) return { ok: false, error: "invalid", errors: { fields: "exports.errors.no_default_fields" } };
  } else {
    fields = splitFieldNames(request.fields ?? []);
    const known = new Set([...config.builtin_fields, ...config.custom_fields, ...config.other_fields].map((field) => field.name));
    if (fields.length === 0) return { ok: false, error: "invalid", errors: { fields: "exports.errors.no_fields" } };
    if (fields.some((name) => !known.has(name))) return { ok: false, error: "invalid", errors: { fields: "exports.errors.unknown_field" } };
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
        file_name: reportFileName(request.section, format, created),
        created_at: created,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueJob(trx, EXPORT_JOB, { reportId: report.id }, { maxAttempts: 3 });
    await recordAudit(trx, {
      merchantId: request.merchantId,
      actor: request.user,
      action: "export_requested",
      description: `Export of ${request.section} transactions as ${format.toUpperCase()} (${fields.join(", ")})${query ? ` filtered by ${query}` : ""}`,
      objectType: "report",
      objectId: report.id,
      ip: request.ip,
    });
    return report.id;
  });
  return { ok: true, id };
}

/** transactions-payment_request-20260314-0930.csv, in Kuwait time. */
export function reportFileName(section: string, format: ExportFormat, createdAt: string) {
  const stamp = DateTime.fromISO(createdAt, { zone: "utc" }).setZone(DISPLAY_ZONE).toFormat("yyyyMMdd-HHmm");
  return `transactions-${section}-${stamp}.${format === "csv" ? "csv" : "xlsx"}`;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xls: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** Where a report's file lives: relative paths are kept in the row, under REPORTS_DIR. */
export function reportFilePath(relative: string) {
  const root = path.resolve(env().REPORTS_DIR);
  const target = path.resolve(root, relative);
  if (!target.startsWith(root + path.sep)) throw new Error("Report path escapes the reports folder");
  return target;
}

// --- The file writer --------------------------------------------------------------------------

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * A spreadsheet runs a cell that starts with =, +, -, @ (or a tab or CR before one) as a formula:
 * such a cell gets a leading apostrophe. A plain signed number (a phone number in +965… form, a
 * negative amount) cannot run anything and is left as it is.
 */
export function neutraliseCell(value: string) {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** RFC 4180: quoted when it holds a quote, a comma or a line break; quotes doubled. */
function csvCell(value: string) {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export type ReportFileOptions = {
  scope: ListScope;
  filters: TransactionFilters;
  /** Field names (built-in or other), in column order. */
  fields: readonly string[];
  /** Header labels: one per field in the same order, or by field name (the name when missing). */
  labels: readonly string[] | Readonly<Record<string, string>>;
  /** "xls" (and "xlsx") write an XLSX workbook. */
  format: ExportFormat | "xlsx";
  /** The language of states, unit names, the sheet name and its direction. */
  language: Language;
  filePath: string;
  /** Called after every batch with the rows written so far. */
  onProgress?: (rows: number) => void | Promise<void>;
  batchSize?: number;
};

type CellReader = (row: TransactionRow) => string;

function cellReaders(fields: readonly string[], language: Language): CellReader[] {
  const t = translator(language);
  const states = new Map<string, string>(TRANSACTION_STATES.map((state) => [state, t(`states.${state}`)]));
  return fields.map((name): CellReader => {
    if (!isFieldName(name)) throw new Error(`Unknown export field ${name}`);
    if (name === "state") return (row) => states.get(row.state) ?? row.state;
    if (name === "unit") return (row) => (language === "ar" ? row.unit_ar : row.unit_en) ?? "";
    return (row) => plainValue(row, name as FieldName);
  });
}

/**
 * Streams the matching transactions into a CSV (UTF-8 with a BOM, so Excel reads Arabic) or an
 * XLSX file, batch by batch: memory stays flat however many rows there are. The file appears
 * under its name only once complete.
 */
export async function writeReportFile(db: DB, options: ReportFileOptions): Promise<{ rows: number; bytes: number }> {
  const readers = cellReaders(options.fields, options.language);
  const headers = options.fields.map((name, index) =>
    neutraliseCell(Array.isArray(options.labels) ? (options.labels[index] ?? name) : ((options.labels as Record<string, string>)[name] ?? name)),
  );
  await fs.promises.mkdir(path.dirname(options.filePath), { recursive: true });
  const partial = `${options.filePath}.${process.pid}.${Date.now()}.part`;
  const output = fs.createWriteStream(partial);
  // Thrown by the next write or wait (output.errored); an unheard "error" event would end the process.
  output.on("error", () => {});
  const batches = iterateTransactions(db, options.scope, options.filters, options.batchSize ?? BATCH_SIZE);
  let rows = 0;
  try {
    if (options.format === "csv") {
      await write(output, `\uFEFF${headers.map(csvCell).join(",")}\r\n`);
      for await (const batch of batches) {
        let chunk = "";
        for (const row of batch) {
          chunk += `${readers.map((read) => csvCell(neutraliseCell(read(row)))).join(",")}\r\n`;
        }
        await write(output, chunk);
        rows += batch.length;
        await options.onProgress?.(rows);
      }
      output.end();
      await finished(output);
    } else {
      const workbook = new XlsxWriter(output);
      await workbook.start({ sheetName: translator(options.language)("exports.sheet_name"), rightToLeft: options.language === "ar", header: headers });
      for await (const batch of batches) {
        await workbook.writeRows(batch.map((row) => readers.map((read) => neutraliseCell(read(row)))));
        rows += batch.length;
        await options.onProgress?.(rows);
      }
      await workbook.finish();
      output.end();
      await finished(output);
    }
    await fs.promises.rename(partial, options.filePath);
    const { size } = await fs.promises.stat(options.filePath);
    return { rows, bytes: size };
  } catch (error) {
    output.destroy();
    await batches.return(undefined);
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}

async function write(output: fs.WriteStream, chunk: string) {
  if (output.errored) throw output.errored;
  if (!output.write(chunk)) await once(output, "drain");
}

// --- The job ----------------------------------------------------------------------------------

type ReportRow = { id: number; merchant_id: number; user_id: number | null; user_name: string; language: string };

/** Builds a queued report's file, keeping its progress up to date, then tells the user who asked. */
export async function runExport(db: DB, reportId: number) {
  const report = await db
    .selectFrom("reports")
    .select(["id", "merchant_id", "user_id", "user_name", "section", "file_format", "language", "query", "fields", "state", "file_name", "created_at"])
    .where("id", "=", reportId)
    .executeTakeFirst();
  // Done or failed: a repeated job has nothing left to do. Running: the worker stopped half-way; start again.
  if (!report || report.state === "done" || report.state === "failed") return;
  await db.updateTable("reports").set({ state: "running", rows_done: 0, rows_total: null, error: null }).where("id", "=", report.id).execute();

  const language: Language = isLanguage(report.language) ? report.language : "en";
  const scope: ListScope = { merchantId: report.merchant_id, plugin: pluginOf(report.section), deleted: false };
  const filters = parseListQuery(new URLSearchParams(report.query)).filters;
  const fields = report.fields.split(",").filter(Boolean);
  const fileName = report.file_name ?? reportFileName(report.section, report.file_format, report.created_at);
  const relativePath = path.join(String(report.merchant_id), `${report.id}-${fileName}`);
  try {
    const config = await exportConfig(db, report.merchant_id, report.section, language);
    const labels = Object.fromEntries(
      [...config.builtin_fields, ...config.custom_fields, ...config.other_fields].map((field) => [field.name, field.label]),
    );
    const total = await countTransactions(db, scope, filters);
    await db.updateTable("reports").set({ rows_total: total }).where("id", "=", report.id).execute();
    let reported = 0;
    const result = await writeReportFile(db, {
      scope,
      filters,
      fields,
      labels,
      format: report.file_format,
      language,
      filePath: reportFilePath(relativePath),
      onProgress: async (rows) => {
        if (rows - reported < PROGRESS_EVERY_ROWS) return;
        reported = rows;
        await db.updateTable("reports").set({ rows_done: rows }).where("id", "=", report.id).execute();
      },
    });
    await db
      .updateTable("reports")
      .set({
        state: "done",
        rows_done: result.rows,
        rows_total: result.rows,
        file_path: relativePath,
        file_name: fileName,
        file_size: result.bytes,
        finished_at: nowIso(),
      })
      .where("id", "=", report.id)
      .execute();
    await finish(db, report, "report_exported", `${fileName}: ${result.rows} rows, ${result.bytes} bytes`);
  } catch (error) {
    const message = String(error instanceof Error ? error.message : error).slice(0, 1000);
    await db.updateTable("reports").set({ state: "failed", error: message, finished_at: nowIso() }).where("id", "=", report.id).execute();
    await finish(db, report, "report_failed", `${fileName}: ${message}`);
  }
}

async function finish(db: DB, report: ReportRow, kind: "report_exported" | "report_failed", description: string) {
  const language: Language = isLanguage(report.language) ? report.language : "en";
  await recordAudit(db, {
    merchantId: report.merchant_id,
    actor: report.user_id === null ? null : { id: report.user_id, username: report.user_name },
    action: kind === "report_exported" ? "export_finished" : "export_failed",
    description,
    objectType: "report",
    objectId: report.id,
  });
  if (report.user_id === null) return;
  await createNotification(db, {
    merchantId: report.merchant_id,
    userId: report.user_id,
    kind,
    title: translator(language)(`notifications.${kind}`),
    link: `/${language}/generated-reports?id=${report.id}`,
  });
}

registerJobHandler(EXPORT_JOB, async (db, payload: { reportId: number }) => {
  await runExport(db, payload.reportId);
});

// --- Generated reports ------------------------------------------------------------------------

const REPORT_COLUMNS = [
  "id",
  "user_name",
  "section",
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
  return db.selectFrom("reports").select(REPORT_COLUMNS).where("merchant_id", "=", merchantId).where("id", "=", id).executeTakeFirst();
}

/**
 * A finished report's file to send, or why not. Every download is written to the audit log.
 */
export async function openReportDownload(db: DB, input: { merchantId: number; user: { id: number; username: string }; id: number; ip?: string | null }) {
  const report = await db
    .selectFrom("reports")
    .select(["id", "state", "file_format", "file_path", "file_name", "file_size", "rows_total", "rows_done"])
    .where("merchant_id", "=", input.merchantId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  if (!report) return { ok: false as const, reason: "not_found" as const };
  if (report.state !== "done" || !report.file_path || !report.file_name) {
    return { ok: false as const, reason: "not_ready" as const, state: report.state, rows_done: report.rows_done, rows_total: report.rows_total };
  }
  const filePath = reportFilePath(report.file_path);
  let size: number;
  try {
    size = (await fs.promises.stat(filePath)).size;
  } catch {
    return { ok: false as const, reason: "not_found" as const };
  }
  await recordAudit(db, {
    merchantId: input.merchantId,
    actor: input.user,
    action: "report_downloaded",
    description: report.file_name,
    objectType: "report",
    objectId: report.id,
    ip: input.ip,
  });
  return {
    ok: true as const,
    fileName: report.file_name,
    contentType: CONTENT_TYPES[report.file_format],
    size,
    open: () => fs.createReadStream(filePath),
  };
}
