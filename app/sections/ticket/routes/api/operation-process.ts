import type { Route } from "./+types/operation-process";
import { findOperationRequest, operationRequestScope } from "~/domain/approvals/operation-requests.server";
import { serializeOperationRequest } from "../../presentation.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { OPERATIONS_BASE, pathId, requireTicketApi } from "./access.server";

/** GET processes/operation/{id}/: one Operations Request with the transaction, maker, checker, outcome and the actions open to the user. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, lang } = await requireTicketApi(request, context, "operations_approval");
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  if (!operationRequestScope(user)) return apiDetail(request, "api.permission_denied", 403);
  const id = pathId(params.id);
  const row = id ? await findOperationRequest(db, user.merchantId, user, id) : undefined;
  if (!row) return apiDetail(request, "api.not_found", 404);
  return apiJson(serializeOperationRequest(row, user, lang, OPERATIONS_BASE));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
