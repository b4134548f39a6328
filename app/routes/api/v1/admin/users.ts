import type { Route } from "./+types/users";
import { listMerchantUsers } from "~/domain/identity/user-admin.server";
import { apiJson, requireApiPermission, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** GET the merchant's users (administration, manage_merchant). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listMerchantUsers(getDbFrom(context), user.merchantId));
}
