import type { Route } from "./+types/operation-counter";
import { countPendingOperationRequests, operationRequestScope } from "~/domain/approvals/operation-requests.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { requireTicketApi } from "./access.server";

/** GET counter: {count} of pending Operations Requests the user may see (a checker's all, a maker's own). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, db } = await requireTicketApi(request, context, "operations_approval");
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  if (!operationRequestScope(user)) return apiDetail(request, "api.permission_denied", 403);
  return apiJson({ count: await countPendingOperationRequests(db, user.merchantId, user) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
