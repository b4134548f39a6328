import type { Route } from "./+types/user.update-user";
import { setOrderNotification } from "~/domain/identity/users.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { apiDetail, apiErrors, apiJson, methodNotAllowed, readBody, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** PATCH {receive_order_notification}: a user changes their own setting, nobody else's. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  if (String(user.id) !== params.id) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  const value = body.receive_order_notification;
  if (typeof value !== "boolean") return apiErrors(request, { receive_order_notification: ["errors.required"] });
  const db = getDbFrom(context);
  await setOrderNotification(db, user, value);
  await recordAudit(db, {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    action: value ? "order_notifications_on" : "order_notifications_off",
    params: {},
    objectType: "user",
    objectId: user.id,
  });
  return apiJson({ id: user.id, receive_order_notification: value });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
