import type { Route } from "./+types/dispatch-logs";
import { listDispatchLogs } from "../../domain/bulk-queries.server";
import { idOf, requireBulkApi } from "../../presentation/bulk-access.server";
import { serializeDispatchLog } from "../../presentation/bulk-api.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";

/** GET uploads/{id}/dispatch-logs: each sending run of the bulk, newest first; answers {count, results}. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db } = await requireBulkApi(request, context);
  const bulkId = idOf(params.bulkId);
  const bulk = bulkId
    ? await db
        .selectFrom("bulk_uploads")
        .select("id")
        .where("id", "=", bulkId)
        .where("merchant_id", "=", user.merchantId)
        .executeTakeFirst()
    : undefined;
  if (!bulk) return apiDetail(request, "api.not_found", 404);
  const logs = await listDispatchLogs(db, user.merchantId, bulk.id);
  return apiJson({ count: logs.length, results: logs.map(serializeDispatchLog) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
