import type { Route } from "./+types/notification-templates";
import { listNotificationTemplates } from "~/domain/messaging/notification-templates.server";
import { apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** GET the messages the merchant may word, each with, per language, whether it words it itself. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listNotificationTemplates(getDbFrom(context), user.merchantId));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
