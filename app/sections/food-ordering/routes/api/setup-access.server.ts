import type { RouterContextProvider } from "react-router";
import { loadAvailableSections, loadMerchantDefaults, hasFeature } from "~/domain/merchants/merchants.server";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser, userInSetup } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { SETUP_RESOURCES } from "../../presentation/setup-resources.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The user of a set-up API call (a bearer token, or an API key with a `menu` scope: `menu:read`,
 * `menu:write`) who may do `permission`, with the resource the path names; a merchant without food ordering answers
 * 404, as if it did not exist.
 */
export async function requireSetupApi(request: Request, context: Context, permission: "view_order" | "change_order") {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const user = userInSetup(signedIn, "menu");
  if (!user || !hasFeature(await loadAvailableSections(db, user.merchantId), "food_ordering"))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  const name = /\/dashboard\/([a-z-]+)/.exec(new URL(request.url).pathname)?.[1] ?? "";
  const resource = SETUP_RESOURCES[name];
  if (!resource) throw apiDetail(request, "api.not_found", 404);
  const { currency } = await loadMerchantDefaults(db, user.merchantId);
  return { user, db, name, resource, ctx: { db, merchantId: user.merchantId, currency, lang: apiLanguage(request) } };
}
