import type { Route } from "./+types/unit-logo";
import { setUnitLogo } from "~/domain/merchants/units-admin.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  methodNotAllowed,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** POST multipart with a `file`: the unit's new logo (PNG, JPEG or WebP); answers the unit with its `logo_url`. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) return apiDetail(request, "api.not_found", 404);
  if (Number(request.headers.get("Content-Length") ?? 0) > 1024 * 1024)
    return apiErrors(request, { file: ["admin.images.errors.too_large_logo"] }, 413);
  let file: FormDataEntryValue | null = null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return apiErrors(request, { file: ["admin.images.errors.empty"] });
  }
  if (!(file instanceof File)) return apiErrors(request, { file: ["admin.images.errors.empty"] });
  const stored = await setUnitLogo(getDbFrom(context), {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    id,
    file,
    ip: context.get(clientAddressContext),
  });
  if (stored.ok) return apiJson(stored.unit);
  return stored.code === "admin.units.errors.not_found"
    ? apiDetail(request, "api.not_found", 404)
    : apiErrors(request, { file: [stored.code] });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
