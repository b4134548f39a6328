import type { Route } from "./+types/user.token-refresh";
import { refreshApiTokens } from "~/domain/identity/api-tokens.server";
import { apiDetail, apiErrors, apiJson, methodNotAllowed, readBody, str } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { getAppSecret } from "~/lib/secret.server";

/** POST refresh → a new access and a new refresh token; the old refresh token stops working. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const refresh = str(body.refresh, 200);
  if (!refresh) return apiErrors(request, { refresh: ["errors.required"] });
  const db = getDbFrom(context);
  const tokens = await refreshApiTokens(db, refresh, await getAppSecret(db));
  if (!tokens) return apiDetail(request, "api.token_invalid", 401, { code: "token_not_valid" });
  return apiJson(tokens);
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
