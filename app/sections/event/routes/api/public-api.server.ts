import type { DB } from "~/db/database.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { apiDetail, apiLanguage } from "~/web/api.server";
import { findPublishedEvent, type PublicEvent } from "../../domain/public-events.server";

/** The caller's language: `?lang=` when given, else Accept-Language. */
export function publicApiLanguage(request: Request): Language {
  const asked = new URL(request.url).searchParams.get("lang");
  return isLanguage(asked) ? asked : apiLanguage(request);
}

/** A published event by slug, or the API's 404 (in the caller's language). */
export async function requirePublicEvent(db: DB, request: Request, slug: unknown): Promise<PublicEvent> {
  const event = typeof slug === "string" && slug.trim() ? await findPublishedEvent(db, slug.trim()) : undefined;
  if (!event) throw apiDetail(request, "events_public.errors.not_found", 404);
  return event;
}
