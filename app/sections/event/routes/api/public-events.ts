import type { Route } from "./+types/public-events";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { listPublicEvents, serializeEventCard } from "../../domain/public-events.server";
import { publicApiLanguage } from "./public-api.server";

/**
 * GET: the published events with a date still offered, soonest first (`?merchant=<id>` for one
 * merchant's). OPTIONS: what the list takes and answers. Anonymous.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const lang = publicApiLanguage(request);
  if (request.method === "OPTIONS") {
    return apiJson(
      {
        name: "Events",
        renders: ["application/json"],
        filters: { merchant: "integer", lang: ["en", "ar"] },
        fields: [
          "id",
          "slug",
          "merchant",
          "title",
          "location",
          "image_url",
          "currency_code",
          "is_free",
          "from_price",
          "dates",
        ],
      },
      200,
      { Allow: "GET, OPTIONS" },
    );
  }
  const merchant = new URL(request.url).searchParams.get("merchant");
  const merchantId = merchant && /^\d{1,10}$/.test(merchant) ? Number(merchant) : undefined;
  const events = await listPublicEvents(getDbFrom(context), { merchantId, lang });
  return apiJson({ count: events.length, results: events.map(serializeEventCard) });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
