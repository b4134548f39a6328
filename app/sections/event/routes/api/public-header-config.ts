import type { Route } from "./+types/public-header-config";
import { unitOf } from "~/domain/merchants/units.server";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { requirePublicEvent } from "./public-api.server";

/** GET header-config?event=<slug>: the branding of the event's merchant unit (public spec: public header, unit_details). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const event = await requirePublicEvent(db, request, new URL(request.url).searchParams.get("event"));
  const unit = await unitOf(db, event.merchant_id, event.unit_id)
    .select([
      "logo_url",
      "title_en",
      "title_ar",
      "website",
      "twitter_url",
      "instagram_url",
      "facebook_url",
      "show_unit_title",
      "header_color",
    ])
    .executeTakeFirst();
  return apiJson({ unit_details: unit ? { ...unit, show_unit_title: Boolean(unit.show_unit_title) } : null });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
