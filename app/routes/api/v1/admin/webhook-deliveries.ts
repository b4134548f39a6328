import type { Route } from "./+types/webhook-deliveries";
import { findWebhook, listDeliveries, redeliver } from "~/domain/integrations/webhooks.server";
import { apiDetail, apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { managerOf } from "~/domain/identity/users.server";

/** GET the endpoint's delivery log, newest first: each try with its event, status, response code and attempt number. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  const db = getDbFrom(context);
  if (id === null || !(await findWebhook(db, user.merchantId, id))) return apiDetail(request, "api.not_found", 404);
  return apiJson(await listDeliveries(db, user.merchantId, id));
}

/** POST `.../deliveries/{delivery_id}/redeliver` sends that delivery's event again, once; answers 202. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST" || !params.deliveryId) return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  const deliveryId = recordId(params.deliveryId);
  if (id === null || deliveryId === null) return apiDetail(request, "api.not_found", 404);
  const outcome = await redeliver(getDbFrom(context), {
    manager: managerOf(user),
    endpointId: id,
    deliveryId,
    ip: context.get(clientAddressContext),
  });
  if (outcome.ok) return apiJson({ queued: true }, 202);
  return outcome.code === "admin.webhooks.errors.disabled"
    ? apiDetail(request, outcome.code, 409)
    : apiDetail(request, "api.not_found", 404);
}
