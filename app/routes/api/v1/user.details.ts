import type { Route } from "./+types/user.details";
import { allPermissions } from "~/sections/registry";
import { loadAvailableSections, loadMerchantBranding } from "~/domain/merchants/merchants.server";
import { apiJson, apiLanguage, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** GET the signed-in user: identity, superuser flag, named permissions, merchant branding, sections. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  const db = getDbFrom(context);
  const [branding, sections] = await Promise.all([
    loadMerchantBranding(db, user.merchantId),
    loadAvailableSections(db, user.merchantId),
  ]);
  return apiJson({
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    is_superuser: Boolean(user.is_superuser),
    user_permissions: user.is_superuser ? allPermissions() : user.permissions,
    receive_order_notification: user.receiveOrderNotification,
    merchant_logo: branding.logo_url,
    merchant_title: apiLanguage(request) === "ar" ? branding.title_ar : branding.title_en,
    sections,
  });
}
