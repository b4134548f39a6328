import type { Route } from "./+types/roles";
import { checkRoleInput, createRole, deleteRole, listRoles, updateRole } from "~/domain/identity/roles.server";
import { builtPermissions } from "~/sections/registry";
import {
  apiDetail,
  apiErrors,
  apiJson,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { managerOf } from "~/domain/identity/users.server";

/** GET the merchant's roles (`.../roles`) or one of them (`.../roles/{id}`). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const roles = await listRoles(getDbFrom(context), user.merchantId);
  if (params.id === undefined) return apiJson(roles);
  const role = roles.find((entry) => entry.id === recordId(params.id));
  return role ? apiJson(role) : apiDetail(request, "api.not_found", 404);
}

/**
 * POST `{"name", "permissions": [...]}` makes a role (201); PATCH `.../roles/{id}` with the same
 * fields changes it (every holder's rights change from their next request); DELETE removes it.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const db = getDbFrom(context);
  const manager = managerOf(user);
  const ip = context.get(clientAddressContext);
  const id = params.id === undefined ? null : recordId(params.id);
  if (params.id !== undefined && id === null) return apiDetail(request, "api.not_found", 404);
  if (request.method === "DELETE" && id !== null) {
    const deleted = await deleteRole(db, { manager, id, ip });
    if (deleted.ok) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    return deleted.code === "admin.roles.errors.not_found"
      ? apiDetail(request, "api.not_found", 404)
      : apiDetail(request, deleted.code, 403);
  }
  const creating = request.method === "POST" && id === null;
  if (!creating && !(request.method === "PATCH" && id !== null)) return methodNotAllowed(request);
  const body = await readBody(request);
  const unknown = Object.keys(body).filter((field) => field !== "name" && field !== "permissions");
  if (unknown.length)
    return apiErrors(request, Object.fromEntries(unknown.map((field) => [field, ["api.read_only_field"]])));
  const current = id === null ? undefined : (await listRoles(db, user.merchantId)).find((role) => role.id === id);
  if (id !== null && !current) return apiDetail(request, "api.not_found", 404);
  const checked = checkRoleInput(
    { name: body.name ?? current?.name, permissions: body.permissions ?? current?.permissions },
    builtPermissions(),
  );
  if (!checked.ok) return apiErrors(request, checked.errors);
  const outcome = creating
    ? await createRole(db, { manager, name: checked.name, permissions: checked.permissions, ip })
    : await updateRole(db, { manager, id: id!, name: checked.name, permissions: checked.permissions, ip });
  if (!outcome.ok)
    return apiErrors(
      request,
      { [outcome.field ?? "non_field_errors"]: [outcome.code] },
      outcome.code === "admin.roles.errors.superuser_only" ? 403 : 400,
    );
  return apiJson(outcome.role, creating ? 201 : 200);
}
