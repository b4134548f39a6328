import type { Route } from "./+types/unit";
import { checkUnitBody, UnitSchema } from "~/domain/merchants/unit-schema";
import { loadUnit, makeDefault, updateUnit } from "~/domain/merchants/units-admin.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** GET one of the merchant's units; another merchant's answers 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  const found = id === null ? undefined : await loadUnit(getDbFrom(context), user.merchantId, id);
  return found ? apiJson(found) : apiDetail(request, "api.not_found", 404);
}

/**
 * PATCH changes the fields sent (any of them; `id`, `is_default` and `logo_url` are refused by
 * name) and answers the unit; POST on `.../default` makes it the merchant's default unit.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) return apiDetail(request, "api.not_found", 404);
  const db = getDbFrom(context);
  const change = {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    ip: context.get(clientAddressContext),
    id,
  };
  if (new URL(request.url).pathname.replace(/\/$/, "").endsWith("/default")) {
    if (request.method !== "POST") return methodNotAllowed(request);
    const made = await makeDefault(db, change);
    return made.ok ? apiJson(made.unit) : apiDetail(request, "api.not_found", 404);
  }
  if (request.method !== "PATCH") return methodNotAllowed(request);
  if (!(await loadUnit(db, user.merchantId, id))) return apiDetail(request, "api.not_found", 404);
  const checked = checkUnitBody(UnitSchema, await readBody(request));
  if (!checked.ok) return apiErrors(request, checked.errors);
  const updated = await updateUnit(db, { ...change, changes: checked.value });
  if (updated.ok) return apiJson(updated.unit);
  return updated.code === "admin.units.errors.not_found"
    ? apiDetail(request, "api.not_found", 404)
    : apiErrors(request, { [updated.field ?? "non_field_errors"]: [updated.code] });
}
