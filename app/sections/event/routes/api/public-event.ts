import type { Route } from "./+types/public-event";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { publicEventView, serializePublicEvent } from "../../domain/public-events.server";
import { publicApiLanguage, requirePublicEvent } from "./public-api.server";

/** GET events/{slug}: a published event with its tickets and each one's `remaining_qty_per_date`. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const event = await requirePublicEvent(db, request, params.slug);
  return apiJson(await serializePublicEvent(db, await publicEventView(db, event, publicApiLanguage(request))));
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
