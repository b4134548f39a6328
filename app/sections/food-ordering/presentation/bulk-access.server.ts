import type { RouterContextProvider } from "react-router";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import type { SessionUser } from "~/domain/identity/users.server";
import { apiDetail, apiLanguage, requireApiPermission, requireApiUser, userInSetup } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/**
 * The user of a product bulk create API call (a bearer token, or an API key with
 * `menu:write`) who may change the menu; a merchant without the feature answers 404, as if it did not exist.
 */
export async function requireBulkCreateApi(request: Request, context: Readonly<RouterContextProvider>) {
  const { user: person } = await requireApiUser(request, context, { apiKey: true });
  const db = getDbFrom(context);
  if (!hasFeature(await loadAvailableSections(db, person.merchantId), "food_ordering", "product_bulk_create"))
    throw apiDetail(request, "api.not_found", 404);
  const user = userInSetup(person, "menu");
  if (!user) throw apiDetail(request, "api.not_found", 404);
  requireApiPermission(request, user, "change_order");
  return { user: user as SessionUser, db, lang: apiLanguage(request) };
}
