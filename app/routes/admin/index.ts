import { redirect } from "react-router";
import type { Route } from "./+types/index";
import { requirePermission, requireUser } from "~/web/guards.server";

/** The administration panel opens on the merchant's profile. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  requirePermission(requireUser(context, request), "manage_merchant");
  return redirect(`/${params.lang}/admin/profile`);
}
