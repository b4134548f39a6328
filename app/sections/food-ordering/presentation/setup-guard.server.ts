import type { RouterContextProvider } from "react-router";
import { can } from "~/domain/identity/permissions";
import { hasFeature } from "~/domain/merchants/merchants.server";
import { isLanguage } from "~/lib/i18n";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";

type Context = Readonly<RouterContextProvider>;

/**
 * Who may open a set-up page: the branches pages need the Branches feature and view_order; the
 * menu, vouchers and settings pages the Product bulk create feature and change_order (the spec's
 * features are fixed). `canSetUp` says whether the links to the latter are shown.
 */
export async function guardSetupPage(
  context: Context,
  request: Request,
  params: { lang?: string },
  need: { feature: "branches" | "product_bulk_create"; permission: "view_order" | "change_order" },
) {
  const auth = requireUser(context, request);
  const available = await requireSection(context, auth, "food_ordering", need.feature);
  requirePermission(auth, need.permission);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const canChange = can(auth.user, "change_order");
  return {
    auth,
    lang,
    canChange,
    canSetUp: canChange && hasFeature(available, "food_ordering", "product_bulk_create"),
  };
}
