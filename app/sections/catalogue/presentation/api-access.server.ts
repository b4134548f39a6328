import type { RouterContextProvider } from "react-router";
import { grantsOn } from "~/domain/identity/api-keys.server";
import type { SessionUser } from "~/domain/identity/users.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import type { CatalogueFeature } from "./guard.server";

type Context = Readonly<RouterContextProvider>;

/**
 * What an API key may do in the catalogue's management: its scopes name operations on transactions,
 * so `catalogue:read` reads the shop (view_product) and `catalogue:write` changes it
 * (change_product). A key with nothing on the catalogue answers as if it did not exist.
 */
function userInCatalogue(user: SessionUser): SessionUser | null {
  if (!user.apiKey) return user;
  const granted = grantsOn(user.apiKey.grants, "catalogue");
  const permissions = [
    ...(granted.includes("view_paymenttransaction") ? ["view_product"] : []),
    ...(granted.includes("change_paymenttransaction") ? ["change_product"] : []),
  ];
  return granted.length ? { ...user, permissions } : null;
}

/**
 * The user of a management API call (a bearer token, or `Authorization: Api-Key <key>`) who may do
 * `permission`; a merchant without the catalogue's feature answers 404.
 */
export async function requireCatalogueApi(request: Request, context: Context, feature: CatalogueFeature, permission: "view_product" | "change_product") {
  const { user: signedIn } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  const user = userInCatalogue(signedIn);
  if (!user || !hasFeature(await loadAvailableSections(db, user.merchantId), "catalogue", feature)) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, permission);
  return { user, db, lang: apiLanguage(request), actor: { id: user.id, username: user.username } };
}
