import type { TextParams } from "./outcome";
import {
  decodeCsvBytes,
  looksLikeZip,
  parseCsv,
  readXlsxApart,
  SpreadsheetError,
  toCsv,
  type SheetRows,
} from "./spreadsheet.server";

/**
 * The one reader of the spreadsheets merchants upload (bulk payment requests, menu items, catalogue
 * products), all or nothing: a file is refused as a whole (unreadable, not UTF-8, a required column
 * missing, an unknown column, no rows, too many) or its rows are checked cell by cell, each column by
 * the reader its importer declares, and one bad cell refuses the file with every bad cell named.
 * What an importer does with the good rows is its own.
 */

/** A bad cell: its row in the spreadsheet (the header is row 1), its column, a translation key and the key's values. */
export type RowError = { row: number; column: string; code: string; params?: TextParams };

/** A row of the file as it came (cells untrimmed), numbered as the spreadsheet numbers it. */
export type SheetRow = { number: number; cells: string[] };

/** What the error report is made of: the file's header and rows, and the errors by row. */
export type ErrorReport = { header: string[]; rows: SheetRow[]; errors: RowError[] };

export type FileRefusal = { ok: false; kind: "file"; code: string; params?: TextParams };
export type RowsRefusal = { ok: false; kind: "rows"; errors: RowError[]; report: ErrorReport; rowsChecked: number };

/** An importer's words for a file refused as a whole: translation keys. Without `unknownColumns`, columns it does not know are left unread. */
export type SheetRefusals = {
  emptyFile: string;
  unreadable: string;
  notUtf8: string;
  /** Given `columns`, the missing ones. */
  missingColumns: string;
  /** Given `columns`, the first ten it does not know. */
  unknownColumns?: string;
  noRows: string;
  /** Given `max`. */
  tooManyRows: string;
};

/** What a column's reader is given besides the cell's text. */
export type Cell<Context> = {
  /** What the importer knows of the merchant (its currency, its gateways…). */
  context: Context;
  /** Marks the cell bad; the reader still answers a value, for the row's own checks. */
  refuse: (code: string, params?: TextParams) => void;
};

/** Reads a cell's text (trimmed; "" when blank or when the file has no such column) into what the importer keeps. */
export type ColumnReader<Context, Value = unknown> = (text: string, cell: Cell<Context>) => Value;

/**
 * An importer's column spec (declared with `satisfies SheetSpec<Context>`): a column's header text is
 * its name, compared trimmed and in any case.
 */
export type SheetSpec<Context> = {
  /** The columns the file must have. */
  required: readonly string[];
  /** Every column the importer reads, in the order a row's errors are listed. */
  columns: Record<string, ColumnReader<Context>>;
  maxRows: number;
  refusals: SheetRefusals;
};

type ColumnOf<Spec extends SheetSpec<never>> = keyof Spec["columns"] & string;

/** A row's cells as the spec's readers read them. */
export type ValuesOf<Spec extends SheetSpec<never>> = {
  [Column in keyof Spec["columns"]]: ReturnType<Spec["columns"][Column]>;
};

/** A file whose header and size are good: its header as it came, its rows (blank ones left out), where each column is. */
export type Sheet<Column extends string> = {
  ok: true;
  header: string[];
  rows: SheetRow[];
  positions: ReadonlyMap<Column, number>;
};

/** What a row's own checks are given: they may refuse any of its cells. */
export type RowCheck<Column extends string> = {
  number: number;
  /** Whether the file has the column (an update may change only the columns a file has). */
  has: (column: Column) => boolean;
  refuse: (column: Column, code: string, params?: TextParams) => void;
};

/** The file's rows: XLSX when the bytes are a zip, else CSV, which must be UTF-8 (Excel's plain "CSV" on an Arabic system is Windows-1256, and is refused with a word on how to save it). */
export async function readSheetRows(
  bytes: Buffer,
  refusals: Pick<SheetRefusals, "emptyFile" | "unreadable" | "notUtf8">,
): Promise<{ ok: true; rows: SheetRows } | { ok: false; code: string }> {
  if (bytes.length === 0) return { ok: false, code: refusals.emptyFile };
  if (looksLikeZip(bytes)) {
    try {
      return { ok: true, rows: await readXlsxApart(bytes) };
    } catch (error) {
      if (
        error instanceof SpreadsheetError ||
        error instanceof RangeError ||
        (error as { code?: string }).code?.startsWith("Z_")
      )
        return { ok: false, code: refusals.unreadable };
      throw error;
    }
  }
  const text = decodeCsvBytes(bytes);
  if (text === null) return { ok: false, code: refusals.notUtf8 };
  if (text.includes("\u0000")) return { ok: false, code: refusals.unreadable };
  return { ok: true, rows: parseCsv(text) };
}

/** Reads an uploaded file and checks it as a whole: its header against the spec, then how many rows it has. */
export async function readSheet<Spec extends SheetSpec<never>>(
  bytes: Buffer,
  spec: Spec & { required: readonly ColumnOf<Spec>[] },
): Promise<Sheet<ColumnOf<Spec>> | FileRefusal> {
  type Column = ColumnOf<Spec>;
  const { refusals } = spec;
  const read = await readSheetRows(bytes, refusals);
  if (!read.ok) return { ok: false, kind: "file", code: read.code };
  const [header = [], ...body] = read.rows;
  const names = header.map((name) => name.trim().toLowerCase());
  const missing = spec.required.filter((column) => !names.includes(column));
  if (missing.length)
    return { ok: false, kind: "file", code: refusals.missingColumns, params: { columns: missing.join(", ") } };
  const columns = Object.keys(spec.columns) as Column[];
  if (refusals.unknownColumns) {
    // A column the importer does not know (a misspelt "expiry_time") would be dropped without a word.
    const known = new Set<string>(columns);
    const unknown = [
      ...new Set(header.map((name) => name.trim()).filter((name) => name !== "" && !known.has(name.toLowerCase()))),
    ];
    if (unknown.length)
      return {
        ok: false,
        kind: "file",
        code: refusals.unknownColumns,
        params: { columns: unknown.slice(0, 10).join(", ") },
      };
  }
  const positions = new Map(
    columns.filter((column) => names.includes(column)).map((column) => [column, names.indexOf(column)]),
  );
  // Rows wholly blank (a spreadsheet's trailing lines) are not rows.
  const rows = body
    .map((cells, index) => ({ number: index + 2, cells }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) return { ok: false, kind: "file", code: refusals.noRows };
  if (rows.length > spec.maxRows)
    return { ok: false, kind: "file", code: refusals.tooManyRows, params: { max: spec.maxRows } };
  return { ok: true, header, rows, positions };
}

/**
 * Checks every row: each cell by its column's reader, then the row as a whole by `checkRow` (what
 * needs several cells or the rows before), which answers what the importer keeps of a good row.
 * Every row is checked, so the answer names every bad cell of the file, a row's in the order of the
 * spec's columns; a row with one is not kept.
 */
export function checkRows<Context, Spec extends SheetSpec<Context>, Checked>(
  sheet: Sheet<ColumnOf<Spec>>,
  spec: Spec,
  context: Context,
  checkRow: (values: ValuesOf<Spec>, row: RowCheck<ColumnOf<Spec>>) => Checked,
): { ok: true; rows: Checked[] } | RowsRefusal {
  type Column = ColumnOf<Spec>;
  const columns = Object.keys(spec.columns) as Column[];
  const order = (error: RowError) => {
    const at = columns.indexOf(error.column as Column);
    return at < 0 ? columns.length : at;
  };
  const errors: RowError[] = [];
  const checked: Checked[] = [];
  for (const { number, cells } of sheet.rows) {
    const rowErrors: RowError[] = [];
    const textOf = (column: Column) => {
      const at = sheet.positions.get(column);
      return at === undefined ? "" : (cells[at] ?? "").trim();
    };
    const refuse = (column: Column, code: string, params?: TextParams) =>
      rowErrors.push({ row: number, column, code, ...(params ? { params } : {}) });
    const values = {} as Record<Column, unknown>;
    for (const column of columns)
      values[column] = spec.columns[column](textOf(column), {
        context,
        refuse: (code, params) => refuse(column, code, params),
      });
    const kept = checkRow(values as ValuesOf<Spec>, {
      number,
      has: (column) => sheet.positions.has(column),
      refuse,
    });
    if (rowErrors.length) errors.push(...rowErrors.sort((a, b) => order(a) - order(b)));
    else checked.push(kept);
  }
  if (errors.length)
    return {
      ok: false,
      kind: "rows",
      errors,
      report: { header: sheet.header, rows: sheet.rows, errors },
      rowsChecked: sheet.rows.length,
    };
  return { ok: true, rows: checked };
}

/** The file's rows as CSV with an `error` column: each bad row's errors as "column: message", worded by `word` in the reader's language. */
export function errorReportCsv(report: ErrorReport, word: (error: RowError) => string) {
  const byRow = new Map<number, RowError[]>();
  for (const error of report.errors) byRow.set(error.row, [...(byRow.get(error.row) ?? []), error]);
  const width = report.header.length;
  const lines = [[...report.header, "error"]];
  for (const row of report.rows) {
    const cells = Array.from({ length: width }, (_, index) => row.cells[index] ?? "");
    lines.push([...cells, (byRow.get(row.number) ?? []).map((error) => `${error.column}: ${word(error)}`).join("; ")]);
  }
  return toCsv(lines);
}

const YES = new Set(["1", "yes", "y", "true", "نعم"]);
const NO = new Set(["0", "no", "n", "false", "لا"]);

/** A yes/no cell, in either language: true, false, or null when blank; anything else is refused with `refusal` (and read as null). */
export function yesNoReader(
  refusal: string,
  also: { yes: readonly string[]; no: readonly string[] } = { yes: [], no: [] },
) {
  return (text: string, cell: Cell<unknown>): boolean | null => {
    const value = text.toLowerCase();
    if (value === "") return null;
    if (YES.has(value) || also.yes.includes(value)) return true;
    if (NO.has(value) || also.no.includes(value)) return false;
    cell.refuse(refusal);
    return null;
  };
}

/** A text cell of at most `max` characters, refused with `tooLong` (given `max`) beyond; a blank one refused when `required`. */
export function textReader(max: number, options: { tooLong: string; required?: boolean }) {
  return (text: string, cell: Cell<unknown>) => {
    if (options.required && text === "") cell.refuse("errors.required");
    else if (text.length > max) cell.refuse(options.tooLong, { max });
    return text;
  };
}

/** A count of at most nine digits, or null when blank; anything else is refused with `refusal`. */
export function countReader(refusal: string) {
  return (text: string, cell: Cell<unknown>): number | null => {
    if (text === "") return null;
    if (/^\d{1,9}$/.test(text)) return Number(text);
    cell.refuse(refusal);
    return null;
  };
}
