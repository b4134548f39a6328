import type { Route } from "./+types/api-keys";
import { checkApiKeyInput, createApiKey, listApiKeys } from "~/domain/identity/api-keys.server";
import { API_KEY_PLUGINS } from "~/sections/registry";
import { apiErrors, apiJson, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

const FIELDS = new Set(["name", "scopes", "allowed_ips", "expires_at"]);

/** GET the merchant's API keys (never their secrets). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listApiKeys(getDbFrom(context), user.merchantId));
}

/**
 * POST `{"name", "scopes": [...], "allowed_ips": [...], "expires_at"}` answers 201 with
 * `{"id", "key", "prefix"}`: the only time the key is shown.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const body = await readBody(request);
  const unknown = Object.keys(body).filter((field) => !FIELDS.has(field));
  if (unknown.length)
    return apiErrors(request, Object.fromEntries(unknown.map((field) => [field, ["api.read_only_field"]])));
  const checked = checkApiKeyInput(
    { name: body.name, scopes: body.scopes, allowed_ips: body.allowed_ips, expires_at: body.expires_at },
    API_KEY_PLUGINS,
  );
  if (!checked.ok) return apiErrors(request, checked.errors);
  const manager = managerOf(user);
  const created = await createApiKey(getDbFrom(context), {
    manager,
    key: checked.value,
    ip: context.get(clientAddressContext),
  });
  if (!created.ok) return apiErrors(request, { [created.field ?? "scopes"]: [created.code] }, 403);
  return apiJson({ id: created.id, key: created.key, prefix: created.prefix }, 201);
}
