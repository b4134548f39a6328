import type { Route } from "./+types/permission-request";
import { canHandlePermissionRequests, findPermissionRequest } from "~/domain/approvals/permission-requests.server";
import { serializePermissionRequest } from "../../presentation.server";
import { apiDetail, apiJson, methodNotAllowed } from "~/web/api.server";
import { pathId, PERMISSION_REQUESTS_BASE, requireTicketApi } from "./access.server";

/** GET permission-requests/{id}/: one request with the user, the permission, who asked, who decided and the actions open to the user. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, db, lang } = await requireTicketApi(request, context, "user_permission_changes");
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request);
  if (!canHandlePermissionRequests(user)) return apiDetail(request, "api.permission_denied", 403);
  const id = pathId(params.id);
  const row = id ? await findPermissionRequest(db, user.merchantId, id) : undefined;
  if (!row) return apiDetail(request, "api.not_found", 404);
  return apiJson(serializePermissionRequest(row, user, lang, PERMISSION_REQUESTS_BASE));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
