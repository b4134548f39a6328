import { once } from "node:events";
import type { Writable } from "node:stream";
import type { DB } from "~/db/database.server";
import { DateTime } from "luxon";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import {
  exportScopeOf,
  failReport,
  finishReport,
  reportFileOf,
  reportProgress,
  startReport,
  type ExportConfig,
  type ExportFormat,
} from "~/domain/reporting/exports.server";
import { XlsxWriter, type XlsxCell } from "~/domain/reporting/xlsx-writer.server";
import {
  isFieldName,
  loadTableFields,
  OTHER_FIELDS,
  plainValue,
  type FieldName,
} from "~/domain/transactions/fields.server";
import { parseListQuery, type TransactionFilters } from "~/domain/transactions/filters";
import {
  countTransactions,
  iterateTransactions,
  type ListScope,
  type TransactionRow,
} from "~/domain/transactions/list.server";
import { DISPLAY_ZONE, formatDateTime } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { exponentOf, toDecimalString } from "~/lib/money";
import { storage } from "~/lib/storage.server";
import {
  defaultFieldLabels,
  displayValue,
  presentTableFields,
  stateWord,
  type ExtensionsOf,
  type TransactionExtensions,
} from "./transactions.server";

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
export async function exportConfig(
  db: DB,
  merchantId: number,
  section: string,
  lang: Language,
  extensions?: TransactionExtensions,
): Promise<ExportConfig> {
  const sectionFields = (extensions?.fields ?? []).map((field) => field.name);
  const tableFields = presentTableFields(await loadTableFields(db, merchantId, section, sectionFields), extensions);
  const label = (labels: { label_en: string; label_ar: string }) => (lang === "ar" ? labels.label_ar : labels.label_en);
  const builtin = tableFields.map((field) => ({
    name: field.name,
    label_en: field.label_en,
    label_ar: field.label_ar,
  }));
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
  /** The storage key the file is written under. */
  key: string;
  /** Called after every batch with the rows written so far. */
  onProgress?: (rows: number) => void | Promise<void>;
  batchSize?: number;
  /** The columns the report's section adds (app/sections). */
  extensions?: TransactionExtensions;
};

/**
 * A cell before it is written: text, an amount (its decimal text and the currency's decimals) or a
 * moment (a stored UTC instant). CSV writes amounts as their text and moments in Kuwait time;
 * XLSX makes them number and date cells, so a spreadsheet can sum and sort them.
 */
type Cell = string | { number: string; decimals: number } | { moment: string };
type CellReader = (row: TransactionRow) => Cell;

const AMOUNT_FIELDS = new Set<string>(["amount", "paid_amount", "fee", "refunded_amount"]);
const MOMENT_FIELDS = new Set<string>(["created", "state_changed_at", "expiration_time"]);
/** Cells read as the list shows them, in the report's language: the state, the gateway's name, the unit. */
const DISPLAYED_FIELDS = new Set<string>(["state", "gateway_name", "unit"]);
const MINOR_AMOUNT: Record<string, (row: TransactionRow) => number> = {
  amount: (row) => row.amount,
  paid_amount: (row) => row.paid_amount,
  fee: (row) => row.fee,
  refunded_amount: (row) => row.refunded_amount,
};
const MOMENT: Record<string, (row: TransactionRow) => string | null> = {
  created: (row) => row.created_at,
  state_changed_at: (row) => row.state_changed_at,
  expiration_time: (row) => row.expiration_time,
};

function cellReaders(
  fields: readonly string[],
  language: Language,
  gatewayNames: Map<string, { name_en: string; name_ar: string }>,
  extensions?: TransactionExtensions,
): CellReader[] {
  return fields.map((name): CellReader => {
    const own = extensions?.fields?.find((field) => field.name === name);
    if (own) return (row) => own.display(row, language);
    if (!isFieldName(name)) throw new Error(`Unknown export field ${name}`);
    if (name === "order_no") return (row) => ({ number: String(row.order_no), decimals: 0 });
    if (AMOUNT_FIELDS.has(name)) {
      const minor = MINOR_AMOUNT[name];
      return (row) => ({
        number: toDecimalString(minor(row), row.currency_code),
        decimals: exponentOf(row.currency_code),
      });
    }
    if (MOMENT_FIELDS.has(name)) {
      const moment = MOMENT[name];
      return (row) => {
        const value = moment(row);
        return value ? { moment: value } : "";
      };
    }
    if (DISPLAYED_FIELDS.has(name)) return (row) => displayValue(row, name as FieldName, language, gatewayNames);
    return (row) => plainValue(row, name);
  });
}

/** A stored UTC instant in Kuwait time. */
function kuwaitTime(iso: string) {
  return DateTime.fromISO(iso, { zone: "utc" }).setZone(DISPLAY_ZONE);
}

/** A cell as CSV text: amounts as decimals of their currency, moments as Kuwait wall-clock time (2026-03-10 11:00:00). */
function csvText(cell: Cell) {
  if (typeof cell === "string") return neutraliseCell(cell);
  if ("number" in cell) return cell.number;
  return kuwaitTime(cell.moment).toFormat("yyyy-LL-dd HH:mm:ss");
}

function xlsxCell(cell: Cell): XlsxCell {
  if (typeof cell === "string") return neutraliseCell(cell);
  if ("number" in cell) return cell;
  const time = kuwaitTime(cell.moment);
  return {
    dateTime: {
      year: time.year,
      month: time.month,
      day: time.day,
      hour: time.hour,
      minute: time.minute,
      second: time.second,
    },
  };
}

/** Column widths in characters: wide enough for a date and time, an email, the header. */
function columnWidths(fields: readonly string[], headers: readonly string[]) {
  return fields.map((name, index) => {
    const header = headers[index]?.length ?? 0;
    const content = MOMENT_FIELDS.has(name)
      ? 20
      : AMOUNT_FIELDS.has(name)
        ? 12
        : name === "customer_email" || name === "description" || name === "extra"
          ? 30
          : 14;
    return Math.max(content, header + 4);
  });
}

/**
 * Streams the matching transactions into a CSV (UTF-8 with a BOM, so Excel reads Arabic) or an
 * XLSX file, batch by batch, into storage: memory stays flat however many rows there are. The
 * file appears under its key only once complete.
 */
export async function writeReportFile(db: DB, options: ReportFileOptions): Promise<{ rows: number; bytes: number }> {
  const gateways = await listMerchantGateways(db, options.scope.merchantId);
  const readers = cellReaders(
    options.fields,
    options.language,
    new Map(gateways.map((gateway) => [gateway.code, gateway])),
    options.extensions,
  );
  const headers = options.fields.map((name, index) =>
    neutraliseCell(
      Array.isArray(options.labels)
        ? (options.labels[index] ?? name)
        : ((options.labels as Record<string, string>)[name] ?? name),
    ),
  );
  const batches = iterateTransactions(db, options.scope, options.filters, options.batchSize ?? BATCH_SIZE);
  let rows = 0;
  try {
    const { bytes } = await storage().putStream(options.key, async (output) => {
      if (options.format === "csv") {
        await write(output, `\uFEFF${headers.map(csvCell).join(",")}\r\n`);
        for await (const batch of batches) {
          let chunk = "";
          for (const row of batch) {
            chunk += `${readers.map((read) => csvCell(csvText(read(row)))).join(",")}\r\n`;
          }
          await write(output, chunk);
          rows += batch.length;
          await options.onProgress?.(rows);
        }
        return;
      }
      const workbook = new XlsxWriter(output);
      await workbook.start({
        sheetName: translator(options.language)("exports.sheet_name"),
        rightToLeft: options.language === "ar",
        header: headers,
        widths: columnWidths(options.fields, headers),
      });
      for await (const batch of batches) {
        await workbook.writeRows(batch.map((row) => readers.map((read) => xlsxCell(read(row)))));
        rows += batch.length;
        await options.onProgress?.(rows);
      }
      await workbook.finish();
    });
    return { rows, bytes };
  } catch (error) {
    await batches.return(undefined);
    throw error;
  }
}

async function write(output: Writable, chunk: string) {
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
  const { fileName, key } = reportFileOf(report);
  // Taken again after its worker stopped half-way, it starts clean: nobody else holds its job.
  await storage().removeIncomplete(key);
  const extensions = scope.plugin ? extensionsOf(scope.plugin) : undefined;
  try {
    const config = await exportConfig(db, report.merchant_id, report.section, language, extensions);
    const labels = Object.fromEntries(
      [...config.builtin_fields, ...config.custom_fields, ...config.other_fields].map((field) => [
        field.name,
        field.label,
      ]),
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
      key,
      onProgress: async (rows) => {
        if (rows - reported < PROGRESS_EVERY_ROWS) return;
        reported = rows;
        await reportProgress(db, report.id, { rows_done: rows });
      },
    });
    await finishReport(db, report, { key, fileName, rows: result.rows, bytes: result.bytes });
  } catch (error) {
    await failReport(db, report, fileName, String(error instanceof Error ? error.message : error));
  }
}

export type ReportFilter = { label: string; value: string };

/**
 * A report's filters as its reader reads them, in their language: "State: Paid, Failed",
 * "Created: 01 Nov 2026 – 24 Nov 2026", gateways by name, people by username. The choices are
 * read once for all the reports of a page.
 */
export async function describeReportFilters(
  db: DB,
  merchantId: number,
  queries: readonly string[],
  lang: Language,
): Promise<ReportFilter[][]> {
  if (queries.every((query) => query === "")) return queries.map(() => []);
  const [gateways, users, units] = await Promise.all([
    listMerchantGateways(db, merchantId),
    db.selectFrom("users").select(["id", "username"]).where("merchant_id", "=", merchantId).execute(),
    db.selectFrom("units").select(["id", "title_en", "title_ar"]).where("merchant_id", "=", merchantId).execute(),
  ]);
  const t = translator(lang);
  const gatewayName = new Map(
    gateways.map((gateway) => [gateway.code, lang === "ar" ? gateway.name_ar : gateway.name_en]),
  );
  const username = new Map(users.map((user) => [user.id, user.username]));
  const unitName = new Map(units.map((unit) => [unit.id, lang === "ar" ? unit.title_ar : unit.title_en]));
  const yesNo = (value: boolean) => t(value ? "transactions.filters.yes" : "transactions.filters.no");
  const list = (values: readonly string[]) => values.join(lang === "ar" ? "، " : ", ");
  const moment = (iso: string | undefined, end: boolean) => {
    if (!iso) return "";
    const time = DateTime.fromISO(iso, { zone: "utc" })
      .setZone(DISPLAY_ZONE)
      .setLocale(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US");
    // A bound the date filter made (the start or the end of a Kuwait day) is that day; any other instant keeps its time.
    const wholeDay = end
      ? time.toFormat("HH:mm:ss.SSS") === "23:59:59.999"
      : time.toFormat("HH:mm:ss.SSS") === "00:00:00.000";
    return wholeDay ? time.toFormat("dd LLL yyyy") : formatDateTime(iso, lang);
  };
  const range = (after: string | undefined, before: string | undefined) => {
    if (!after && !before) return null;
    if (after && before) return `${moment(after, false)} – ${moment(before, true)}`;
    return after
      ? `${t("transactions.filters.from")} ${moment(after, false)}`
      : `${t("transactions.filters.to")} ${moment(before, true)}`;
  };

  return queries.map((query) => {
    if (!query) return [];
    const { filters } = parseListQuery(new URLSearchParams(query));
    const described: ReportFilter[] = [];
    const add = (key: string, value: string | null | undefined) => {
      if (value) described.push({ label: t(key), value });
    };
    add("transactions.search", filters.q ? (lang === "ar" ? `«${filters.q}»` : `“${filters.q}”`) : null);
    add("transactions.filters.state", filters.state && list(filters.state.map((state) => stateWord(state, lang))));
    add("transactions.filters.created", range(filters.created_after, filters.created_before));
    add(
      "transactions.filters.state_changed_at",
      range(filters.state_changed_at_after, filters.state_changed_at_before),
    );
    add(
      "transactions.filters.gateway_code",
      filters.gateway_code && list(filters.gateway_code.map((code) => gatewayName.get(code) ?? code)),
    );
    add("transactions.filters.currency_code", filters.currency_code && list(filters.currency_code));
    add(
      "transactions.filters.initiator",
      filters.initiator ? (username.get(filters.initiator) ?? `#${filters.initiator}`) : null,
    );
    add("transactions.filters.unit", filters.unit ? (unitName.get(filters.unit) ?? `#${filters.unit}`) : null);
    add("transactions.filters.product_type", filters.product_type);
    add("transactions.filters.bulk", filters.bulk ? `#${filters.bulk}` : null);
    for (const flag of ["seen", "email_seen", "disclosed_to_merchant"] as const) {
      const value = filters[flag];
      add(`transactions.filters.${flag}`, value === undefined ? null : yesNo(value));
    }
    return described;
  });
}
