import type { Route } from "./+types/users";
import { resolveRoles } from "~/domain/identity/roles.server";
import { checkInvitation, inviteUser, listMerchantUsers } from "~/domain/identity/user-admin.server";
import {
  apiErrors,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { managerOf } from "~/domain/identity/users.server";

const FIELDS = new Set(["username", "email", "first_name", "last_name", "roles", "is_superuser"]);

/** GET the merchant's users (administration, manage_merchant). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listMerchantUsers(getDbFrom(context), user.merchantId));
}

/**
 * POST `{"username", "email", "roles": [...], "first_name", "last_name", "is_superuser"}` invites a
 * user: roles by id or by name; the invitee gets a link by e-mail to choose a password. 201 with the user.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const body = await readBody(request);
  const db = getDbFrom(context);
  const errors: Record<string, string[]> = {};
  for (const field of Object.keys(body)) if (!FIELDS.has(field)) errors[field] = ["api.read_only_field"];
  const checked = checkInvitation({
    username: body.username,
    email: body.email,
    first_name: body.first_name,
    last_name: body.last_name,
  });
  Object.assign(errors, checked.errors);
  const wanted = body.roles ?? [];
  let roleIds: number[] = [];
  if (!Array.isArray(wanted) || !wanted.every((entry) => typeof entry === "string" || typeof entry === "number"))
    errors.roles = ["admin.users.errors.roles"];
  else {
    const resolved = await resolveRoles(db, user.merchantId, wanted as (string | number)[]);
    if (resolved.unknown.length) errors.roles = ["admin.users.errors.roles"];
    roleIds = resolved.roles.map((role) => role.id);
  }
  if (body.is_superuser !== undefined && typeof body.is_superuser !== "boolean")
    errors.is_superuser = ["api.invalid_boolean"];
  if (Object.keys(errors).length) return apiErrors(request, errors);
  const invited = await inviteUser(db, {
    manager: managerOf(user),
    invitation: { ...checked.value, roleIds, superuser: body.is_superuser === true },
    baseUrl: linkBaseUrl(),
    lang: apiLanguage(request),
    ip: context.get(clientAddressContext),
  });
  if (!invited.ok)
    return apiErrors(
      request,
      { [invited.field ?? "non_field_errors"]: [invited.code] },
      invited.code === "admin.users.errors.superuser_only" ? 403 : 400,
    );
  return apiJson(invited.user, 201);
}
