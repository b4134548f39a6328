import type { RouterContextProvider } from "react-router";
import { can } from "~/domain/identity/permissions";
import { isLanguage } from "~/lib/i18n";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";

type Context = Readonly<RouterContextProvider>;

/**
 * Who may open a collector page of the dashboard: the merchant has the feature, the user may view
 * collectors (`change_collector` for the forms' actions, asked again by each action). `canChange`
 * says whether the forms are offered.
 */
export async function guardCollectorPage(
  context: Context,
  request: Request,
  params: { lang?: string },
  feature: "collectors" | "payment_restriction",
  permission: "view_collector" | "change_collector" = "view_collector",
) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "customer_payment", feature);
  requirePermission(auth, "view_collector");
  if (permission === "change_collector") requirePermission(auth, "change_collector");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  return { auth, lang, canChange: can(auth.user, "change_collector") };
}
