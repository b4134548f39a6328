import type { Route } from "./+types/api-key";
import { findApiKey, revokeApiKey } from "~/domain/identity/api-keys.server";
import { apiDetail, apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { managerOf } from "~/domain/identity/users.server";

/** GET one API key (never its secret). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  const found = id === null ? undefined : await findApiKey(getDbFrom(context), user.merchantId, id);
  return found ? apiJson(found) : apiDetail(request, "api.not_found", 404);
}

/** DELETE revokes the key: refused from the next request on. Answers 204. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) return apiDetail(request, "api.not_found", 404);
  const outcome = await revokeApiKey(getDbFrom(context), {
    manager: managerOf(user),
    id,
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) return apiDetail(request, "api.not_found", 404);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
