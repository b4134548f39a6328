import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { checkUploadedFile, wordRefusedUpload } from "~/presentation/spreadsheet-uploads.server";
import { IMPORT_MAX_BYTES } from "../domain/bulk-columns";
import { importProducts } from "../domain/bulk-import.server";
import { errorReportCsv } from "~/lib/spreadsheet-import.server";
import type { Actor } from "../domain/fields";

const FILE_KEYS = {
  chooseFile: "catalogue_admin.import.errors.choose_file",
  emptyFile: "catalogue_admin.import.errors.empty_file",
  tooLarge: "catalogue_admin.import.errors.too_large",
  fileType: "catalogue_admin.import.errors.file_type",
};

/**
 * The file of a form or a multipart API call, checked and imported: what the page and the API
 * answer, worded in the reader's language. The error report is the file as CSV with an `error` column.
 */
export async function uploadProducts(
  db: DB,
  input: { merchantId: number; actor: Actor; file: FormDataEntryValue | null; lang: Language; ip?: string | null },
) {
  const { lang } = input;
  const checked = checkUploadedFile(input.file, { maxBytes: IMPORT_MAX_BYTES, keys: FILE_KEYS }, lang);
  if (!checked.ok) return checked;
  const outcome = await importProducts(db, {
    merchantId: input.merchantId,
    actor: input.actor,
    bytes: Buffer.from(await checked.file.arrayBuffer()),
    ip: input.ip,
  });
  if (outcome.ok)
    return {
      ok: true as const,
      created: outcome.created,
      updated: outcome.updated,
      message: translator(lang)("catalogue_admin.import.done", { created: outcome.created, updated: outcome.updated }),
    };
  return wordRefusedUpload(outcome, errorReportCsv, lang);
}
