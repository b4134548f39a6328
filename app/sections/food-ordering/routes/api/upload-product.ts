import { createHash } from "node:crypto";
import type { Route } from "./+types/upload-product";
import { BULK_MAX_BYTES } from "../../domain/bulk-columns";
import { requireBulkCreateApi } from "../../presentation/bulk-access.server";
import { uploadMenuItems } from "../../presentation/bulk-create.server";
import { apiErrors, methodNotAllowed } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";

/**
 * POST upload/product (multipart, field `file`: one CSV or XLSX of menu items): all rows are
 * created and the answer is 201 with `message` and `created`; or nothing is, and 400 says why —
 * `file` for the file itself, else `rows` ([{row, column, message}]) with `error_report` (the file
 * as CSV with an `error` column). Idempotency-Key honoured: a retried upload creates nothing twice.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireBulkCreateApi(request, context);
  if (Number(request.headers.get("Content-Length") ?? 0) > BULK_MAX_BYTES + 64 * 1024)
    return apiErrors(request, { file: ["food_bulk.errors.too_large"] }, 413);
  let file: FormDataEntryValue | null = null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return apiErrors(request, { file: ["food_bulk.errors.unreadable"] });
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
      scope: "food_ordering.upload_product",
      body: { file: digest },
    },
    async () => {
      const outcome = await uploadMenuItems(db, user.merchantId, file, lang);
      if (outcome.ok)
        return {
          status: 201,
          body: { message: outcome.message, created: outcome.created, categories_created: outcome.categoriesCreated },
        };
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
