import type { Route } from "./+types/installed";
import { listInstalledPlugins } from "~/domain/merchants/sections-admin.server";
import { SECTIONS } from "~/sections/registry";
import { apiJson, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

const ORDER = new Map(SECTIONS.map((section, index) => [section.key, index]));

/** GET the signed-in user's merchant's installed plugins (dashboard spec §7), in the side menu's order: `["payment_request", ...]`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  const plugins = await listInstalledPlugins(getDbFrom(context), user.merchantId);
  return apiJson(plugins.filter((plugin) => ORDER.has(plugin)).sort((a, b) => ORDER.get(a)! - ORDER.get(b)!));
}
