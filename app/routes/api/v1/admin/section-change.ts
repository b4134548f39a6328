import type { Route } from "./+types/section-change";
import { installSection, uninstallSection } from "~/domain/merchants/sections-admin.server";
import { findAdminSection } from "~/sections/admin-sections.server";
import { apiDetail, apiJson, methodNotAllowed, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/**
 * POST `.../sections/{key}/install` or `.../uninstall`: answers the section as it is now
 * (`{"key", "installed", "features"}`); doing it twice changes nothing the second time. A key that
 * is not a built section answers 404.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const section = findAdminSection(params.key);
  if (!section) return apiDetail(request, "api.not_found", 404);
  const input = {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    section,
    ip: context.get(clientAddressContext),
  };
  const uninstall = new URL(request.url).pathname.replace(/\/$/, "").endsWith("/uninstall");
  const done = await (uninstall ? uninstallSection : installSection)(getDbFrom(context), input);
  return apiJson(done.state);
}
