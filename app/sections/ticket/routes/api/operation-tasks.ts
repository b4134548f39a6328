import type { Route } from "./+types/operation-tasks";
import { findOperationRequest, operationRequestScope } from "~/domain/approvals/operation-requests.server";
import { serializeOperationRequest } from "../../presentation.server";
import { apiDetail, apiErrors, apiJson, methodNotAllowed } from "~/web/api.server";
import { OPERATIONS_BASE, pathId, requireTicketApi } from "./access.server";

/**
 * GET tasks/operation/?process_id={id}&task_list=ACTIVE: the process's open task (the checker's
 * decision) with the action URLs open to the user; task_list=ALL also answers a decided one.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db, lang } = await requireTicketApi(request, context, "operations_approval");
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  if (!operationRequestScope(user)) return apiDetail(request, "api.permission_denied", 403);
  const params = new URL(request.url).searchParams;
  const taskList = (params.get("task_list") ?? "ACTIVE").toUpperCase();
  if (taskList !== "ACTIVE" && taskList !== "ALL")
    return apiErrors(request, { task_list: ["tickets.errors.task_list"] });
  const id = pathId(params.get("process_id") ?? undefined);
  if (!id) return apiErrors(request, { process_id: ["errors.required"] });
  const row = await findOperationRequest(db, user.merchantId, user, id);
  if (!row) return apiDetail(request, "api.not_found", 404);
  if (taskList === "ACTIVE" && row.state !== "pending") return apiJson({ count: 0, results: [] });
  const process = serializeOperationRequest(row, user, lang, OPERATIONS_BASE);
  const task = {
    id: row.id,
    process_id: row.id,
    flow_task: "approve",
    status: process.status,
    created: row.created_at,
    finished: row.decided_at,
    owner: process.checker,
    actions: process.actions,
  };
  return apiJson({ count: 1, results: [task] });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
