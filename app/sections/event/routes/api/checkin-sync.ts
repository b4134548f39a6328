import { z } from "zod";
import type { Route } from "./+types/checkin-sync";
import { MAX_OFFLINE_SCANS, syncOfflineScans } from "../../domain/checkin.server";
import { serializeSyncedScan } from "../../presentation/checkin.server";
import { translator } from "~/lib/i18n.server";
import { callerOf, respondOnce } from "~/web/idempotency.server";
import { apiErrors, methodNotAllowed, readBody } from "~/web/api.server";
import { eventIdOf, requireCheckinApi } from "./checkin-access.server";

const OfflineScansSchema = z
  .array(z.object({ code: z.string().trim().min(1).max(200), scanned_at: z.string().max(40) }))
  .max(MAX_OFFLINE_SCANS);

/**
 * POST checkin/sync {event_id, scans: [{code, scanned_at}]}: the scans a device admitted while
 * offline, in order. Answers {results: [{code, scanned_at, status, message, ...}], conflicts}: a
 * place admitted twice is a `conflict` with both times. Idempotency-Key as elsewhere.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user, db, lang } = await requireCheckinApi(request, context, ["scan_booking"]);
  const body = await readBody(request);
  const eventId = eventIdOf(body.event_id);
  const scans = OfflineScansSchema.safeParse(body.scans);
  if (!eventId || !scans.success) {
    return apiErrors(request, {
      ...(eventId ? {} : { event_id: ["errors.required"] }),
      ...(scans.success ? {} : { scans: ["checkin.sync.invalid"] }),
    });
  }
  return respondOnce(
    request,
    {
      db,
      merchantId: user.merchantId,
      caller: callerOf(user),
      scope: "event.checkin.sync",
      body: { eventId, scans: scans.data },
    },
    async () => {
      const synced = await syncOfflineScans(db, {
        merchantId: user.merchantId,
        eventId,
        actor: user,
        scans: scans.data,
      });
      if (!synced.ok)
        return { status: 400, body: { event_id: [translator(lang)("checkin.reasons.no_event")], code: "no_event" } };
      const results = synced.results.map((result) => serializeSyncedScan(result, lang));
      return {
        status: 200,
        body: { results, conflicts: results.filter((result) => result.status === "conflict").length },
      };
    },
  );
}

export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}
