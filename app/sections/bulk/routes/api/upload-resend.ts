import type { Route } from "./+types/upload-resend";
import { resendFailed } from "../../domain/bulk-runs.server";
import { idOf, requireBulkApi } from "../../presentation/bulk-access.server";
import { translator } from "~/lib/i18n.server";
import { apiDetail, methodNotAllowed } from "~/web/api.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";

/**
 * POST uploads/{id}/resend-failed: a new run sends again each failed message whose request can still
 * be paid; 202 with its `dispatch_log_id` and `count`, or 400 when nothing failed. Idempotency-Key honoured.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, actor, lang } = await requireBulkApi(request, context);
  const bulkId = idOf(params.bulkId);
  if (!bulkId) return apiDetail(request, "api.not_found", 404);
  const exists = await db
    .selectFrom("bulk_uploads")
    .select("id")
    .where("id", "=", bulkId)
    .where("merchant_id", "=", user.merchantId)
    .executeTakeFirst();
  if (!exists) return apiDetail(request, "api.not_found", 404);
  return respondOnce(
    request,
    { db, merchantId: user.merchantId, caller: callerOf(user), scope: "bulk.resend_failed", body: { bulkId } },
    async () => {
      const outcome = await resendFailed(db, { merchantId: user.merchantId, bulkId, actor });
      if (outcome.ok) return { status: 202, body: { dispatch_log_id: outcome.dispatchLogId, count: outcome.count } };
      return { status: 400, body: { non_field_errors: [translator(lang)(outcome.code)] } };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
