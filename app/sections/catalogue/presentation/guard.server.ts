import type { RouterContextProvider } from "react-router";
import { can } from "~/domain/identity/permissions";
import { isLanguage } from "~/lib/i18n";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";

type Context = Readonly<RouterContextProvider>;

export type CatalogueFeature = "products" | "product_upload" | "stores" | "discounts" | "settings";

/**
 * Who may open a page of the shop's management: the merchant has the catalogue's feature (else 404,
 * as if it did not exist) and the user `view_product` to look or `change_product` to change.
 * `canChange` says whether the page offers its forms.
 */
export async function guardCataloguePage(
  context: Context,
  request: Request,
  params: { lang?: string },
  need: { feature: CatalogueFeature; permission: "view_product" | "change_product" },
) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "catalogue", need.feature);
  requirePermission(auth, need.permission);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  return {
    auth,
    lang,
    canChange: can(auth.user, "change_product"),
    actor: { id: auth.user.id, username: auth.user.username },
  };
}
