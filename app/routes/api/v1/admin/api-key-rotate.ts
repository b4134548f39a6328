import type { Route } from "./+types/api-key-rotate";
import { rotateApiKey } from "~/domain/identity/api-keys.server";
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

/**
 * POST `{"grace_seconds"}` gives the key a new secret, answered once as `key`; the old secret
 * keeps working for grace_seconds (0 or absent: refused at once; at most 7 days).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  if (!/^\d{1,9}$/.test(params.id)) return apiDetail(request, "api.not_found", 404);
  const body = await readBody(request);
  const grace = body.grace_seconds ?? 0;
  const seconds =
    typeof grace === "number" ? grace : typeof grace === "string" && /^\d{1,7}$/.test(grace) ? Number(grace) : NaN;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 7 * 24 * 3600)
    return apiErrors(request, { grace_seconds: ["admin.api_keys.errors.grace"] });
  const outcome = await rotateApiKey(getDbFrom(context), {
    manager: managerOf(user),
    id: Number(params.id),
    graceSeconds: seconds,
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) {
    return outcome.code === "admin.api_keys.errors.not_found"
      ? apiDetail(request, "api.not_found", 404)
      : apiErrors(request, { non_field_errors: [outcome.code] });
  }
  return apiJson({
    id: outcome.id,
    key: outcome.key,
    prefix: outcome.prefix,
    previous_valid_until: outcome.previous_valid_until,
  });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
