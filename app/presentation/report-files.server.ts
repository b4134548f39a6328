import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import type { DB } from "~/db/database.server";
import { TRANSACTION_STATES } from "~/domain/payments/states";
import {
  exportScopeOf,
  failReport,
  finishReport,
  partialFilePath,
  removePartialFiles,
  reportFileOf,
  reportFilePath,
  reportProgress,
  startReport,
  type ExportConfig,
  type ExportFormat,
} from "~/domain/reporting/exports.server";
import { XlsxWriter } from "~/domain/reporting/xlsx-writer.server";
import { isFieldName, loadTableFields, OTHER_FIELDS, plainValue } from "~/domain/transactions/fields.server";
import { parseListQuery, type TransactionFilters } from "~/domain/transactions/filters";
import { countTransactions, iterateTransactions, type ListScope, type TransactionRow } from "~/domain/transactions/list.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { defaultFieldLabels, presentTableFields, stateWord, type ExtensionsOf, type TransactionExtensions } from "./transactions.server";

/** Reports as files people open: what can go in one, in their language, and the file itself. */

const PROGRESS_EVERY_ROWS = 5000;
// Small batches die young in the garbage collector: peak memory stays low at little cost in queries.
const BATCH_SIZE = 500;

/**
 * What can go in a section's export, labelled in both languages (dashboard spec §3 export config).
 * Built-in fields (and the section's own) carry the merchant's own column labels. Custom fields are
 * the keys of a transaction's `extra` map; nothing in the platform defines them per merchant yet
 * and reading them off the rows would mean scanning every row, so the list is empty and `extra`
 * (in other fields) exports the whole map.
 */
export async function exportConfig(db: DB, merchantId: number, section: string, lang: Language, extensions?: TransactionExtensions): Promise<ExportConfig> {
  const sectionFields = (extensions?.fields ?? []).map((field) => field.name);
  const tableFields = presentTableFields(await loadTableFields(db, merchantId, section, sectionFields), extensions);
  const label = (labels: { label_en: string; label_ar: string }) => (lang === "ar" ? labels.label_ar : labels.label_en);
  const builtin = tableFields.map((field) => ({ name: field.name, label_en: field.label_en, label_ar: field.label_ar }));
  const other = OTHER_FIELDS.map((name) => ({ name, ...defaultFieldLabels(name) }));
  return {
    builtin_fields: builtin.map((field) => ({ ...field, label: label(field) })),
    custom_fields: [],
    other_fields: other.map((field) => ({ ...field, label: label(field) })),
    default: tableFields.filter((field) => field.is_active).map((field) => field.name),
  };
}


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
  /** The columns the report's section adds (app/sections). */
  extensions?: TransactionExtensions;
};

type CellReader = (row: TransactionRow) => string;

function cellReaders(fields: readonly string[], language: Language, extensions?: TransactionExtensions): CellReader[] {
  const states = new Map<string, string>(TRANSACTION_STATES.map((state) => [state, stateWord(state, language)]));
  return fields.map((name): CellReader => {
    const own = extensions?.fields?.find((field) => field.name === name);
    if (own) return (row) => own.display(row, language);
    if (!isFieldName(name)) throw new Error(`Unknown export field ${name}`);
    if (name === "state") return (row) => states.get(row.state) ?? row.state;
    if (name === "unit") return (row) => (language === "ar" ? row.unit_ar : row.unit_en) ?? "";
    return (row) => plainValue(row, name);
  });
}

/**
 * Streams the matching transactions into a CSV (UTF-8 with a BOM, so Excel reads Arabic) or an
 * XLSX file, batch by batch: memory stays flat however many rows there are. The file appears
 * under its name only once complete.
 */
export async function writeReportFile(db: DB, options: ReportFileOptions): Promise<{ rows: number; bytes: number }> {
  const readers = cellReaders(options.fields, options.language, options.extensions);
  const headers = options.fields.map((name, index) =>
    neutraliseCell(Array.isArray(options.labels) ? (options.labels[index] ?? name) : ((options.labels as Record<string, string>)[name] ?? name)),
  );
  await fs.promises.mkdir(path.dirname(options.filePath), { recursive: true });
  const partial = partialFilePath(options.filePath);
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


/** Builds a queued report's file, keeping its progress up to date, then tells the user who asked (the export_report job). */
export async function runExport(db: DB, reportId: number, extensionsOf: ExtensionsOf = () => undefined) {
  const report = await startReport(db, reportId);
  if (!report) return;
  const language: Language = isLanguage(report.language) ? report.language : "en";
  const scope: ListScope = exportScopeOf(report.merchant_id, report.section);
  const filters = parseListQuery(new URLSearchParams(report.query)).filters;
  const fields = report.fields.split(",").filter(Boolean);
  const { fileName, relativePath } = reportFileOf(report);
  // Taken again after its worker stopped half-way, it starts clean: nobody else holds its job.
  await removePartialFiles(reportFilePath(relativePath));
  const extensions = scope.plugin ? extensionsOf(scope.plugin) : undefined;
  try {
    const config = await exportConfig(db, report.merchant_id, report.section, language, extensions);
    const labels = Object.fromEntries(
      [...config.builtin_fields, ...config.custom_fields, ...config.other_fields].map((field) => [field.name, field.label]),
    );
    await reportProgress(db, report.id, { rows_total: await countTransactions(db, scope, filters) });
    let reported = 0;
    const result = await writeReportFile(db, {
      scope,
      filters,
      fields,
      labels,
      format: report.file_format,
      language,
      extensions,
      filePath: reportFilePath(relativePath),
      onProgress: async (rows) => {
        if (rows - reported < PROGRESS_EVERY_ROWS) return;
        reported = rows;
        await reportProgress(db, report.id, { rows_done: rows });
      },
    });
    await finishReport(db, report, { relativePath, fileName, rows: result.rows, bytes: result.bytes });
  } catch (error) {
    await failReport(db, report, fileName, String(error instanceof Error ? error.message : error));
  }
}
