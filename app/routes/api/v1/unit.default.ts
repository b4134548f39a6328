import type { Route } from "./+types/unit.default";
import { loadDefaultUnit } from "~/domain/merchants/units.server";
import { apiDetail, apiJson, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";

/** GET unit/default: the signed-in user's merchant's default unit, with its branding. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context, { apiKey: true });
  const unit = await loadDefaultUnit(getDbFrom(context), user.merchantId);
  if (!unit) return apiDetail(request, "api.not_found", 404);
  return apiJson(unit);
}
