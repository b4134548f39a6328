import type { Route } from "./+types/upload-detail";
import { countResendable } from "../../domain/bulk-runs.server";
import { listDispatchLogs, loadBulk } from "../../domain/bulk-queries.server";
import { idOf, requireBulkApi } from "../../presentation/bulk-access.server";
import { serializeBulk, serializeDispatchLog } from "../../presentation/bulk-api.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";

/** GET uploads/{id}: a bulk's figures (rows, created, sent, paid, amount collected), its schedule and its dispatch logs. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db } = await requireBulkApi(request, context);
  const bulkId = idOf(params.bulkId);
  const bulk = bulkId ? await loadBulk(db, user.merchantId, bulkId) : undefined;
  if (!bulk) return apiDetail(request, "api.not_found", 404);
  const [logs, resendable] = await Promise.all([
    listDispatchLogs(db, user.merchantId, bulk.id),
    countResendable(db, user.merchantId, bulk.id),
  ]);
  return apiJson({ ...serializeBulk(bulk), resendable, dispatch_logs: logs.map(serializeDispatchLog) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
