import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { checkUploadedFile, wordRefusedUpload } from "~/presentation/spreadsheet-uploads.server";
import { BULK_MAX_BYTES } from "../domain/bulk-columns";
import { bulkCreateItems, type BulkOutcome } from "../domain/bulk-create.server";
import { errorReportCsv } from "~/lib/spreadsheet-import.server";

const FILE_KEYS = {
  chooseFile: "food_bulk.errors.choose_file",
  emptyFile: "food_bulk.errors.empty_file",
  tooLarge: "food_bulk.errors.too_large",
  fileType: "food_bulk.errors.file_type",
};

/**
 * The upload of a form or a multipart API call, checked and created: what the page and the API
 * answer, worded in the reader's language. The error report is the file as CSV with an `error` column.
 */
export async function uploadMenuItems(db: DB, merchantId: number, file: FormDataEntryValue | null, lang: Language) {
  const checked = checkUploadedFile(file, { maxBytes: BULK_MAX_BYTES, keys: FILE_KEYS }, lang);
  if (!checked.ok) return checked;
  const outcome: BulkOutcome = await bulkCreateItems(db, {
    merchantId,
    bytes: Buffer.from(await checked.file.arrayBuffer()),
  });
  if (outcome.ok)
    return {
      ok: true as const,
      created: outcome.created,
      categoriesCreated: outcome.categoriesCreated,
      message: translator(lang)("food_bulk.created", { count: outcome.created }),
    };
  return wordRefusedUpload(outcome, errorReportCsv, lang);
}
