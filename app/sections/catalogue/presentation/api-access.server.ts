import type { RouterContextProvider } from "react-router";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser, userInSetup } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import type { CatalogueFeature } from "./guard.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The user of a management API call (a bearer token, or `Authorization: Api-Key <key>`) who may do
 * `permission`: `catalogue:read` reads the shop (view_product) and `catalogue:write` changes it
 * (change_product), within what the key's creator holds; a key with nothing on the catalogue, or a
 * merchant without the catalogue's feature, answers 404.
 */
export async function requireCatalogueApi(
  request: Request,
  context: Context,
  feature: CatalogueFeature,
  permission: "view_product" | "change_product",
) {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const user = userInSetup(signedIn, "catalogue");
  if (!user || !hasFeature(await loadAvailableSections(db, user.merchantId), "catalogue", feature))
    throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  return { user, db, lang: apiLanguage(request), actor: { id: user.id, username: user.username } };
}
