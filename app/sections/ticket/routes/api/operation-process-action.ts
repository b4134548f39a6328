import type { Route } from "./+types/operation-process-action";
import { findOperationRequest, isRequestDecision } from "~/domain/approvals/operation-requests.server";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { serializeOperationRequest } from "../../presentation.server";
import { decideOperationRequest } from "~/domain/payments/operations.server";
import { platformAddresses } from "~/web/addresses.server";
import { apiDetail, methodNotAllowed } from "~/web/api.server";
import { answerOnce, OPERATIONS_BASE, pathId, requireTicketApi } from "./access.server";
import { callerOf } from "~/web/idempotency.server";

/**
 * POST processes/operation/{id}/{approve|reject|cancel}/: decides the request; approval runs the
 * refund, capture or void once. Answers {message, process}; errors {detail}. Idempotency-Key: the
 * same key answers the first response again and decides nothing new.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireTicketApi(request, context, "operations_approval");
  const id = pathId(params.id);
  const decision = params.action;
  if (!id || !isRequestDecision(decision)) return apiDetail(request, "api.not_found", 404);
  return answerOnce(
    request,
    {
      db,
      merchantId: user.merchantId,
      caller: callerOf(user),
      scope: "operation_request.decide",
      body: { id, decision },
    },
    async () => {
      const outcome = await decideOperationRequest(db, {
        merchantId: user.merchantId,
        actor: user,
        requestId: id,
        decision,
        addresses: platformAddresses(request),
      });
      const row = await findOperationRequest(db, user.merchantId, user, id);
      const process = row ? serializeOperationRequest(row, user, lang, OPERATIONS_BASE) : null;
      if (!outcome.ok)
        return {
          status: statusOf(outcome),
          body: { detail: messageOf(outcome, lang), ...(process && statusOf(outcome) !== 404 ? { process } : {}) },
        };
      return { status: 200, body: { message: messageOf(outcome, lang), process } };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
