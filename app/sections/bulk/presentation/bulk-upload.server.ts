import { z } from "zod";
import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { toCsv } from "~/lib/spreadsheet.server";
import { checkUploadedFile } from "~/presentation/spreadsheet-uploads.server";
import { describe } from "~/presentation/texts.server";
import { BULK_MAX_BYTES, SCHEDULES } from "../domain/bulk-columns";
import { uploadBulk, type RequestRules, type UploadChoices } from "../domain/bulk-upload.server";
import { loadSettingsOf } from "~/sections/admin-sections.server";

/** A bad cell in the reader's language, as the page's list and the API's `rows` show it. */
export type WordedRowError = { row: number; column: string; cell: string; message: string };

const FILE_KEYS = {
  chooseFile: "bulk.errors.choose_file",
  emptyFile: "bulk.errors.empty_file",
  tooLarge: "bulk.errors.too_large",
  fileType: "bulk.errors.file_type",
};

export const CHANNELS = ["email", "sms", "email_sms", "none"] as const;

/** The upload form's choices (and the API's fields beside the file). */
export const UploadChoicesSchema = z.object({
  channel: z.enum(CHANNELS, { error: "bulk.errors.channel" }).default("email"),
  schedule: z.enum(SCHEDULES, { error: "bulk.errors.schedule" }).default("none"),
  language: z.enum(["en", "ar"], { error: "bulk.errors.language" }).optional(),
});

export function choicesOf(input: z.output<typeof UploadChoicesSchema>, lang: Language): UploadChoices {
  return {
    sendEmail: input.channel === "email" || input.channel === "email_sms",
    sendSms: input.channel === "sms" || input.channel === "email_sms",
    schedule: input.schedule,
    lang: input.language ?? lang,
  };
}

/** The one-time token the upload form carries (a form posted twice makes one bulk). */
export const UploadTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

/**
 * The merchant's settings for payment requests (Administration → Sections) that a bulk's rows obey
 * as the create form does: sending by e-mail or SMS, editable amounts, the default expiry.
 */
export async function loadRequestRules(db: DB, merchantId: number): Promise<RequestRules> {
  const values = await loadSettingsOf(db, merchantId, "payment_request");
  return {
    defaultExpiryHours: typeof values.default_expiry_hours === "number" ? values.default_expiry_hours : null,
    editableAmount: values.editable_amount !== false,
    emailNotifications: values.email_notifications !== false,
    smsNotifications: values.sms_notifications !== false,
  };
}

/** A spreadsheet's name of a column: A, B, … Z, AA, AB… */
function columnLetter(index: number): string {
  let name = "";
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

/**
 * The upload of a form or a multipart API call, checked and created: what the page and the API
 * answer, worded in the reader's language. The error file names each bad cell (its row, column and
 * spreadsheet reference, what it held, and what is wrong with it).
 */
export async function uploadBulkFile(
  db: DB,
  input: {
    merchantId: number;
    user: { id: number; username: string };
    file: FormDataEntryValue | null;
    choices: UploadChoices;
    lang: Language;
    baseUrl: string;
    uploadToken?: string;
  },
) {
  const t = translator(input.lang);
  const checked = checkUploadedFile(input.file, { maxBytes: BULK_MAX_BYTES, keys: FILE_KEYS }, input.lang);
  if (!checked.ok) return checked;
  const { file } = checked;
  const outcome = await uploadBulk(db, {
    merchantId: input.merchantId,
    user: input.user,
    fileName: file.name === "blob" ? "upload.csv" : file.name,
    bytes: Buffer.from(await file.arrayBuffer()),
    choices: input.choices,
    baseUrl: input.baseUrl,
    rules: await loadRequestRules(db, input.merchantId),
    uploadToken: input.uploadToken,
  });
  if (outcome.ok) return { ...outcome, message: t("bulk.uploaded", { count: outcome.rows }) };
  if (outcome.kind === "file")
    return { ok: false as const, file: [describe(outcome.code, outcome.params, input.lang)] };
  const header = outcome.report.header.map((name) => name.trim().toLowerCase());
  const cellsByRow = new Map(outcome.report.rows.map((row) => [row.number, row.cells]));
  const rows: (WordedRowError & { value: string })[] = outcome.errors.map((error) => {
    const at = header.indexOf(error.column);
    return {
      row: error.row,
      column: error.column,
      cell: at >= 0 ? `${columnLetter(at)}${error.row}` : "",
      value: at >= 0 ? (cellsByRow.get(error.row)?.[at] ?? "") : "",
      message: describe(error.code, error.params, input.lang),
    };
  });
  const report = toCsv([
    [
      t("bulk.report.row"),
      t("bulk.report.column"),
      t("bulk.report.cell"),
      t("bulk.report.value"),
      t("bulk.report.error"),
    ],
    ...rows.map((row) => [String(row.row), row.column, row.cell, row.value, row.message]),
  ]);
  return {
    ok: false as const,
    rows: rows.map(({ value: _, ...row }) => row),
    rowsChecked: outcome.rowsChecked,
    report,
    fileName: file.name,
  };
}

/** A transaction log's error in the reader's language: ours are translation keys; a mail relay's words are shown as they came. */
export function wordLogError(error: string | null, lang: Language) {
  if (!error) return "";
  return /^bulk\.errors\.[a-z_]+$/.test(error) ? translator(lang)(error) : error;
}
