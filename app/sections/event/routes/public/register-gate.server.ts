import { redirect } from "react-router";
import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { hasWaitingZone, validPassEntry } from "../../domain/waiting-zone.server";
import type { PublicEvent } from "../../domain/public-events.server";
import { readPass } from "./queue-cookies.server";

export const waitingZonePath = (lang: Language, slug: string) =>
  `/${lang}/events/ticketwaitingzone?event=${encodeURIComponent(slug)}`;

/**
 * The registration of an event with a waiting zone is open only to holders of a valid pass: anyone
 * else goes to the waiting zone. Answers the pass's queue entry (null when the event has no zone).
 */
export async function requireRegistrationPass(
  db: DB,
  event: PublicEvent,
  request: Request,
  lang: Language,
): Promise<number | null> {
  if (!hasWaitingZone(event)) return null;
  const entryId = await validPassEntry(db, event, readPass(request, event.id));
  if (entryId === null) throw redirect(waitingZonePath(lang, event.slug), 303);
  return entryId;
}
