import type { Route } from "./+types/public-terms";
import { apiJson, methodNotAllowed } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { eventTerms } from "../../domain/public-events.server";
import { requirePublicEvent } from "./public-api.server";

/** GET terms-and-conditions?event=<slug>: the event's terms (the merchant's when it has none) in both languages. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const event = await requirePublicEvent(db, request, new URL(request.url).searchParams.get("event"));
  const [termsEn, termsAr] = await Promise.all([eventTerms(db, event, "en"), eventTerms(db, event, "ar")]);
  return apiJson({ event: event.slug, terms_en: termsEn, terms_ar: termsAr });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
