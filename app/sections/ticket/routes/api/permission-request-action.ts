import type { Route } from "./+types/permission-request-action";
import { isRequestDecision } from "~/domain/approvals/operation-requests.server";
import { decidePermissionRequest, findPermissionRequest } from "~/domain/approvals/permission-requests.server";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { serializePermissionRequest } from "../../presentation.server";
import { apiDetail, methodNotAllowed } from "~/web/api.server";
import { answerOnce, pathId, PERMISSION_REQUESTS_BASE, requireTicketApi } from "./access.server";
import { callerOf } from "~/web/idempotency.server";

/**
 * POST permission-requests/{id}/{approve|reject|cancel}/: decides the request; approval grants the
 * permission once. Answers {message, request}; errors {detail}. Idempotency-Key as elsewhere.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireTicketApi(request, context, "user_permission_changes");
  const id = pathId(params.id);
  const decision = params.action;
  if (!id || !isRequestDecision(decision)) return apiDetail(request, "api.not_found", 404);
  return answerOnce(
    request,
    {
      db,
      merchantId: user.merchantId,
      caller: callerOf(user),
      scope: "permission_request.decide",
      body: { id, decision },
    },
    async () => {
      const outcome = await decidePermissionRequest(db, {
        merchantId: user.merchantId,
        actor: user,
        requestId: id,
        decision,
      });
      if (!outcome.ok) return { status: statusOf(outcome), body: { detail: messageOf(outcome, lang) } };
      const row = await findPermissionRequest(db, user.merchantId, id);
      return {
        status: 200,
        body: {
          message: messageOf(outcome, lang),
          request: row ? serializePermissionRequest(row, user, lang, PERMISSION_REQUESTS_BASE) : null,
        },
      };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
