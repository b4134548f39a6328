import type { RouterContextProvider } from "react-router";
import { apiDetail } from "~/web/api.server";
import { requireCatalogueApi } from "../../presentation/api-access.server";
import { CATALOGUE_RESOURCES } from "../../presentation/resources.server";
import { loadShopMoney } from "../../domain/shop-money.server";

/** The resource a `dashboard/<name>` path names, and the caller who may do `permission` on it. */
export async function requireResourceApi(
  request: Request,
  context: Readonly<RouterContextProvider>,
  permission: "view_product" | "change_product",
) {
  const name = /\/dashboard\/([a-z]+)/.exec(new URL(request.url).pathname)?.[1] ?? "";
  const resource = CATALOGUE_RESOURCES[name];
  if (!resource) throw apiDetail(request, "api.not_found", 404);
  const access = await requireCatalogueApi(request, context, resource.feature, permission);
  const money = await loadShopMoney(access.db, access.user.merchantId);
  return {
    ...access,
    name,
    resource,
    ctx: { db: access.db, merchantId: access.user.merchantId, money, lang: access.lang },
  };
}
