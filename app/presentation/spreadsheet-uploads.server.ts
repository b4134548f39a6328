import { PassThrough } from "node:stream";
import { XlsxWriter } from "~/domain/reporting/xlsx-writer.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import type { TextParams } from "~/lib/outcome";
import { toCsv } from "~/lib/spreadsheet.server";
import { describe } from "./texts.server";

/** A refused row as a section's domain returns it: a translation key and its parameters. */
export type CodedRowError = { row: number; column: string; code: string; params?: TextParams };

/** A row error in the reader's language, as the page's list and the API's `rows` show it. */
export type WordedRowError = { row: number; column: string; message: string };

/** A section's words for a file refused before it is read: translation keys; `tooLarge` is given `max` in megabytes. */
export type UploadFileKeys = { chooseFile: string; emptyFile: string; tooLarge: string; fileType: string };

/**
 * The file of a form or a multipart API call, checked before it is read: there, not empty, within
 * the size, named .csv or .xlsx (a multipart call without a file name arrives as "blob" and is read
 * by its content). A refusal is worded in the reader's language, as the form shows it under the field.
 */
export function checkUploadedFile(
  file: FormDataEntryValue | null,
  rules: { maxBytes: number; keys: UploadFileKeys },
  lang: Language,
): { ok: true; file: File } | { ok: false; file: string[] } {
  const t = translator(lang);
  if (!(file instanceof File) || file.size === 0)
    return { ok: false, file: [t(file instanceof File ? rules.keys.emptyFile : rules.keys.chooseFile)] };
  if (file.size > rules.maxBytes)
    return { ok: false, file: [t(rules.keys.tooLarge, { max: rules.maxBytes / 1024 / 1024 })] };
  if (!/\.(csv|xlsx)$/i.test(file.name) && file.name !== "blob") return { ok: false, file: [t(rules.keys.fileType)] };
  return { ok: true, file };
}

/**
 * An upload the domain refused, worded in the reader's language: the whole file (one message under
 * the field) or its rows, listed and in the error report the section's domain writes from them.
 */
export function wordRefusedUpload<Report, RowError extends CodedRowError>(
  outcome:
    | { kind: "file"; code: string; params?: TextParams }
    | { kind: "rows"; errors: RowError[]; report: Report; rowsChecked: number },
  errorReportCsv: (report: Report, word: (error: RowError) => string) => string,
  lang: Language,
) {
  if (outcome.kind === "file") return { ok: false as const, file: [describe(outcome.code, outcome.params, lang)] };
  const word = (error: RowError) => describe(error.code, error.params, lang);
  const rows: WordedRowError[] = outcome.errors.map((error) => ({
    row: error.row,
    column: error.column,
    message: word(error),
  }));
  return { ok: false as const, rows, rowsChecked: outcome.rowsChecked, report: errorReportCsv(outcome.report, word) };
}

export const EXAMPLE_TYPES = ["required_fields", "all_fields"] as const;
export const EXAMPLE_FORMATS = ["csv", "xlsx"] as const;
export type ExampleType = (typeof EXAMPLE_TYPES)[number];
export type ExampleFormat = (typeof EXAMPLE_FORMATS)[number];

/**
 * What a section's example file is made of: its rows (the header first) for each type, the start of
 * the file's name, the XLSX sheet's name and its narrowest column.
 */
export type ExampleSpreadsheet = {
  rows: (type: ExampleType) => string[][];
  fileName: string;
  sheetName: string;
  minColumnWidth: number;
};

/** An example file: its name, content type and bytes. */
export async function exampleFile(example: ExampleSpreadsheet, type: ExampleType, format: ExampleFormat) {
  const [header, ...rows] = example.rows(type);
  const name = `${example.fileName}-${type.replace("_", "-")}.${format}`;
  if (format === "csv")
    return { name, type: "text/csv; charset=utf-8", body: Buffer.from(toCsv([header, ...rows]), "utf8") };
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  const writer = new XlsxWriter(output);
  await writer.start({
    sheetName: example.sheetName,
    rightToLeft: false,
    header,
    widths: header.map((column) => Math.max(example.minColumnWidth, column.length + 4)),
  });
  await writer.writeRows(rows);
  await writer.finish();
  output.end();
  return {
    name,
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    body: Buffer.concat(chunks),
  };
}
