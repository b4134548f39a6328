import type { Route } from "./+types/api-signing-secret";
import { apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { rotateSigningSecret, signingSecret } from "../domain/session-webhooks.server";

/**
 * The merchant's checkout signing secret, with which what is posted to sessions' webhook_url is
 * signed: GET reads it, POST makes a new one. For a signed-in manager (a bearer token), never an
 * API key: a key that could read it could forge the platform's word.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson({ secret: await signingSecret(getDbFrom(context), user.merchantId) });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson({
    secret: await rotateSigningSecret(getDbFrom(context), {
      id: user.id,
      username: user.username,
      merchantId: user.merchantId,
    }),
  });
}
