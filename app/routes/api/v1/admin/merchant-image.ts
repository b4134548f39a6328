import type { Route } from "./+types/merchant-image";
import { storeBrandImage } from "~/domain/merchants/brand-images.server";
import { apiErrors, apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** POST multipart with a `file` to `.../merchant/logo` or `.../merchant/favicon`: answers `{"logo_url"}` or `{"favicon_url"}`. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const image = new URL(request.url).pathname.replace(/\/$/, "").endsWith("/favicon") ? "favicon" : "logo";
  if (Number(request.headers.get("Content-Length") ?? 0) > 1024 * 1024)
    return apiErrors(request, { file: [`admin.images.errors.too_large_${image}`] }, 413);
  let file: FormDataEntryValue | null = null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return apiErrors(request, { file: ["admin.images.errors.empty"] });
  }
  if (!(file instanceof File)) return apiErrors(request, { file: ["admin.images.errors.empty"] });
  const stored = await storeBrandImage(getDbFrom(context), {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    image,
    file,
    ip: context.get(clientAddressContext),
  });
  if (!stored.ok) return apiErrors(request, { file: [stored.error] });
  return apiJson({ [`${image}_url`]: stored.url });
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
