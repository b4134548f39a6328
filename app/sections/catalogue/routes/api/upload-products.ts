import { createHash } from "node:crypto";
import type { Route } from "./+types/upload-products";
import { IMPORT_MAX_BYTES } from "~/sections/catalogue/domain/bulk-columns";
import { requireCatalogueApi } from "~/sections/catalogue/presentation/api-access.server";
import { uploadProducts } from "~/sections/catalogue/presentation/import.server";
import { translator } from "~/lib/i18n.server";
import { apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { clientAddressContext } from "~/web/request-context.server";

/**
 * POST dashboard/upload/product (multipart, field `file`: one CSV or XLSX of products): every row is
 * created or changed (by slug) and the answer is 201 with `message`, `created` and `updated`; or
 * nothing is, and 400 says why — `file` for the file itself, else `rows` ([{row, column, message}])
 * with `error_report` (the file as CSV with an `error` column). Idempotency-Key honoured.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang, actor } = await requireCatalogueApi(request, context, "product_upload", "change_product");
  if (Number(request.headers.get("Content-Length") ?? 0) > IMPORT_MAX_BYTES + 64 * 1024)
    return apiJson(
      { file: [translator(lang)("catalogue_admin.import.errors.too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 })] },
      413,
    );
  let file: FormDataEntryValue | null = null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return apiErrors(request, { file: ["catalogue_admin.import.errors.unreadable"] });
  }
  const digest =
    file instanceof File
      ? createHash("sha256")
          .update(Buffer.from(await file.arrayBuffer()))
          .digest("hex")
      : null;
  return respondOnce(
    request,
    {
      db,
      merchantId: user.merchantId,
      caller: callerOf(user),
      scope: "catalogue.upload_product",
      body: { file: digest },
    },
    async () => {
      const outcome = await uploadProducts(db, {
        merchantId: user.merchantId,
        actor,
        file,
        lang,
        ip: context.get(clientAddressContext),
      });
      if (outcome.ok)
        return { status: 201, body: { message: outcome.message, created: outcome.created, updated: outcome.updated } };
      if ("file" in outcome) return { status: 400, body: { file: outcome.file } };
      return {
        status: 400,
        body: { rows: outcome.rows, rows_checked: outcome.rowsChecked, error_report: outcome.report },
      };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
