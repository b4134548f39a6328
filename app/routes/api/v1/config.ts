import type { Route } from "./+types/config";
import { loadMerchantBranding } from "~/domain/merchants/merchants.server";
import { apiJson, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { env } from "~/lib/env.server";

/** The site's own address: BASE_URL when the installation names one, else the address asked. */
function publicOrigin(request: Request) {
  const base = env().BASE_URL;
  return base ? new URL(base).origin : new URL(request.url).origin;
}

/**
 * GET config/: the signed-in user's merchant as the dashboard shows it (spec §3 merchant details).
 * `ws_notify_url` names the user's live channel (Server-Sent Events, decision 0033).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context, { apiKey: true });
  const branding = await loadMerchantBranding(getDbFrom(context), user.merchantId);
  return apiJson({
    admin_url: branding.admin_url,
    logo_url: branding.logo_url,
    favicon_url: branding.favicon_url,
    title: branding.title,
    title_en: branding.title_en,
    title_ar: branding.title_ar,
    subheader: branding.subheader,
    ws_notify_url: `${publicOrigin(request)}/api/v1/notifications/live`,
  });
}
