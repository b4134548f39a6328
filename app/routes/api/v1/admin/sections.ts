import type { Route } from "./+types/sections";
import { listSectionStates } from "~/domain/merchants/sections-admin.server";
import { ADMIN_SECTIONS } from "~/sections/admin-sections.server";
import { apiJson, requireApiPermission, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** GET the sections the merchant may install (the built ones): `[{"key", "installed", "features": [...]}]`, features as the merchant has them. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listSectionStates(getDbFrom(context), user.merchantId, ADMIN_SECTIONS));
}
