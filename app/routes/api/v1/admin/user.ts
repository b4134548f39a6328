import type { Route } from "./+types/user";
import { resolveRoles } from "~/domain/identity/roles.server";
import { changeUserAccess, listMerchantUsers, setUserRoles } from "~/domain/identity/user-admin.server";
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
import { managerOf } from "~/domain/identity/users.server";

/** GET one of the merchant's users (administration, manage_merchant). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  if (!/^\d{1,9}$/.test(params.id)) return apiDetail(request, "api.not_found", 404);
  const found = (await listMerchantUsers(getDbFrom(context), user.merchantId)).find(
    (row) => String(row.id) === params.id,
  );
  return found ? apiJson(found) : apiDetail(request, "api.not_found", 404);
}

/**
 * PATCH `{"is_active": false}` deactivates (sessions and tokens stop at once), `true` reactivates;
 * `{"requires_otp": true}` asks for a one-time code at sign-in; `{"roles": [...]}` (ids or names)
 * gives exactly those roles. Other fields are refused.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  if (!/^\d{1,9}$/.test(params.id)) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  const errors: Record<string, string[]> = {};
  let roleIds: number[] | undefined;
  for (const [field, value] of Object.entries(body)) {
    if (field === "roles") {
      const resolved =
        Array.isArray(value) && value.every((entry) => typeof entry === "string" || typeof entry === "number")
          ? await resolveRoles(getDbFrom(context), user.merchantId, value)
          : null;
      if (!resolved || resolved.unknown.length) errors.roles = ["admin.users.errors.roles"];
      else roleIds = resolved.roles.map((role) => role.id);
    } else if (field !== "is_active" && field !== "requires_otp") errors[field] = ["api.read_only_field"];
    else if (typeof value !== "boolean") errors[field] = ["api.invalid_boolean"];
  }
  if (Object.keys(errors).length) return apiErrors(request, errors);
  const manager = managerOf(user);
  if (roleIds) {
    const set = await setUserRoles(getDbFrom(context), {
      manager,
      userId: Number(params.id),
      roleIds,
      ip: context.get(clientAddressContext),
    });
    if (!set.ok)
      return set.code === "admin.users.errors.not_found"
        ? apiDetail(request, "api.not_found", 404)
        : apiDetail(request, set.code, 403);
  }
  const { roles: _roles, ...access } = body;
  const outcome = await changeUserAccess(getDbFrom(context), {
    manager: managerOf(user),
    userId: Number(params.id),
    changes: access as { is_active?: boolean; requires_otp?: boolean },
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) {
    if (outcome.code === "admin.users.errors.not_found") return apiDetail(request, "api.not_found", 404);
    if (outcome.code === "admin.users.errors.superuser_only") return apiDetail(request, outcome.code, 403);
    return apiErrors(request, { [outcome.field ?? "non_field_errors"]: [outcome.code] });
  }
  return apiJson(outcome.user);
}
