import { createHash } from "node:crypto";
import type { Route } from "./+types/upload";
import { BULK_MAX_BYTES } from "../../domain/bulk-columns";
import { requireBulkApi } from "../../presentation/bulk-access.server";
import { choicesOf, uploadBulkFile, UploadChoicesSchema } from "../../presentation/bulk-upload.server";
import { apiErrors, methodNotAllowed } from "~/web/api.server";
import { platformAddresses } from "~/web/addresses.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";

/**
 * POST upload (multipart: `file`, one CSV or XLSX of payment requests; `channel` email, sms,
 * email_sms or none; `schedule` none, weekly or monthly; `language` en or ar, of the messages):
 * every row becomes a payment request and the answer is 201 with `id` and `rows`; the messages go
 * out in the background (GET uploads/{id} follows them). Or nothing is created and 400 says why —
 * `file` for the file itself, else `rows` ([{row, column, cell, message}]) with `error_report`
 * (CSV naming each bad cell). Idempotency-Key honoured: a retried upload creates nothing twice.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang, actor } = await requireBulkApi(request, context);
  if (Number(request.headers.get("Content-Length") ?? 0) > BULK_MAX_BYTES + 64 * 1024)
    return apiErrors(request, { file: ["bulk.errors.too_large_api"] }, 413);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return apiErrors(request, { file: ["bulk.errors.unreadable"] });
  }
  const parsed = UploadChoicesSchema.safeParse({
    channel: form.get("channel") || undefined,
    schedule: form.get("schedule") || undefined,
    language: form.get("language") || undefined,
  });
  if (!parsed.success)
    return apiErrors(
      request,
      Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), [issue.message]])),
    );
  const file = form.get("file");
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
      scope: "bulk.upload",
      body: { file: digest, ...parsed.data },
    },
    async () => {
      const outcome = await uploadBulkFile(db, {
        merchantId: user.merchantId,
        user: actor,
        file,
        choices: choicesOf(parsed.data, lang),
        lang,
        baseUrl: platformAddresses(request).publicBaseUrl,
      });
      if (outcome.ok)
        return {
          status: 201,
          body: {
            id: outcome.bulkId,
            rows: outcome.rows,
            created: outcome.created,
            dispatch_log_id: outcome.dispatchLogId,
            message: outcome.message,
          },
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
