import type { Route } from "./+types/transaction-logs";
import { listTransactionLogs, loadDispatchLog, LOG_RESULTS } from "../../domain/bulk-queries.server";
import { idOf, requireBulkApi } from "../../presentation/bulk-access.server";
import { serializeTransactionLog } from "../../presentation/bulk-api.server";
import { apiDetail, apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";

/**
 * GET uploads/{id}/dispatch-logs/{dispatch_log_id}/transaction-logs?result=&limit=&offset=: what the
 * run sent, per row (recipient, channel, result, error, the request); answers {count, results}.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, lang } = await requireBulkApi(request, context);
  const bulkId = idOf(params.bulkId);
  const logId = idOf(params.dispatchLogId);
  const log = bulkId && logId ? await loadDispatchLog(db, user.merchantId, bulkId, logId) : undefined;
  if (!log) return apiDetail(request, "api.not_found", 404);
  const search = new URL(request.url).searchParams;
  const result = search.get("result") || undefined;
  if (result && !(LOG_RESULTS as readonly string[]).includes(result))
    return apiErrors(request, { result: ["bulk.errors.result"] });
  const limit = Math.min(
    1000,
    Math.max(1, /^\d{1,4}$/.test(search.get("limit") ?? "") ? Number(search.get("limit")) : 100),
  );
  const offset = /^\d{1,7}$/.test(search.get("offset") ?? "") ? Number(search.get("offset")) : 0;
  const list = await listTransactionLogs(db, user.merchantId, log.id, {
    result: result as (typeof LOG_RESULTS)[number] | undefined,
    limit,
    offset,
  });
  return apiJson({ count: list.count, results: list.results.map((row) => serializeTransactionLog(row, lang)) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
