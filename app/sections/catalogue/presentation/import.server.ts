import { PassThrough } from "node:stream";
import type { DB } from "~/db/database.server";
import { XlsxWriter } from "~/domain/reporting/xlsx-writer.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { toCsv } from "~/lib/spreadsheet.server";
import { IMPORT_MAX_BYTES } from "../domain/bulk-columns";
import { errorReportCsv, exampleRows, importProducts, type RowError } from "../domain/bulk-import.server";
import type { Actor } from "../domain/fields";

export type WordedRowError = { row: number; column: string; message: string };

function wordRowError(error: RowError, lang: Language) {
  return translator(lang)(error.code, error.params ?? {});
}

/**
 * The file of a form or a multipart API call, checked and imported: what the page and the API
 * answer, worded in the reader's language. The error report is the file as CSV with an `error` column.
 */
export async function uploadProducts(db: DB, input: { merchantId: number; actor: Actor; file: FormDataEntryValue | null; lang: Language; ip?: string | null }) {
  const { file, lang } = input;
  const t = translator(lang);
  if (!(file instanceof File) || file.size === 0) return { ok: false as const, file: [t(file instanceof File ? "catalogue_admin.import.errors.empty_file" : "catalogue_admin.import.errors.choose_file")] };
  if (file.size > IMPORT_MAX_BYTES) return { ok: false as const, file: [t("catalogue_admin.import.errors.too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 })] };
  if (!/\.(csv|xlsx)$/i.test(file.name) && file.name !== "blob") return { ok: false as const, file: [t("catalogue_admin.import.errors.file_type")] };
  const outcome = await importProducts(db, { merchantId: input.merchantId, actor: input.actor, bytes: Buffer.from(await file.arrayBuffer()), ip: input.ip });
  if (outcome.ok) return { ok: true as const, created: outcome.created, updated: outcome.updated, message: t("catalogue_admin.import.done", { created: outcome.created, updated: outcome.updated }) };
  if (outcome.kind === "file") return { ok: false as const, file: [t(outcome.code, outcome.params ?? {})] };
  const rows: WordedRowError[] = outcome.errors.map((error) => ({ row: error.row, column: error.column, message: wordRowError(error, lang) }));
  return { ok: false as const, rows, rowsChecked: outcome.rowsChecked, report: errorReportCsv(outcome.report, (error) => wordRowError(error, lang)) };
}

export const EXAMPLE_TYPES = ["required_fields", "all_fields"] as const;
export const EXAMPLE_FORMATS = ["csv", "xlsx"] as const;

/** An example file: its name, content type and bytes. */
export async function exampleFile(type: (typeof EXAMPLE_TYPES)[number], format: (typeof EXAMPLE_FORMATS)[number]) {
  const [header, ...rows] = exampleRows(type);
  const name = `products-${type.replace("_", "-")}.${format}`;
  if (format === "csv") return { name, type: "text/csv; charset=utf-8", body: Buffer.from(toCsv([header, ...rows]), "utf8") };
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  const writer = new XlsxWriter(output);
  await writer.start({ sheetName: "Products", rightToLeft: false, header, widths: header.map((column) => Math.max(12, column.length + 4)) });
  await writer.writeRows(rows);
  await writer.finish();
  output.end();
  return { name, type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body: Buffer.concat(chunks) };
}
