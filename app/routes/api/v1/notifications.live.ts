import type { Route } from "./+types/notifications.live";
import { resumeSession } from "~/domain/identity/sessions.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { openLiveStream, parseLastEventId, type LiveReader } from "~/web/live-channel.server";
import { apiDetail, requireApiUser } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { SESSION_COOKIE, readCookie } from "~/web/session-cookie.server";

/**
 * GET: the signed-in user's live channel (Server-Sent Events; the `ws_notify_url` of config/). A
 * dashboard page is let in by its session cookie, an API client by its bearer token; anyone else,
 * an API key included, is refused with 401. Opening or reading it does not keep a session alive.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const db = getDbFrom(context);
  const reader = await readerOf(request, context);
  if (!reader) return apiDetail(request, "api.not_authenticated", 401);
  const url = new URL(request.url);
  // EventSource sends Last-Event-ID on its own reconnects; a page opening a new one passes it in the query.
  const resume = parseLastEventId(request.headers.get("Last-Event-ID") ?? url.searchParams.get("last_event_id"));
  return new Response(openLiveStream(db, reader, { resume, signal: request.signal }), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // A proxy in front must pass each message on as it comes.
      "X-Accel-Buffering": "no",
    },
  });
}

async function readerOf(request: Request, context: Route.LoaderArgs["context"]): Promise<LiveReader | null> {
  const header = request.headers.get("Authorization");
  if (header) {
    if (!/^Bearer\s/i.test(header)) return null;
    try {
      const { user, sessionId } = await requireApiUser(request, context);
      return { merchantId: user.merchantId, userId: user.id, sessionId, user };
    } catch {
      return null;
    }
  }
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) return null;
  const db = getDbFrom(context);
  const resumed = await resumeSession(db, token, { touch: false });
  const user = resumed ? await loadSessionUser(db, resumed.session.user_id) : undefined;
  if (!resumed || !user || user.merchantId !== resumed.session.merchant_id) return null;
  return { merchantId: user.merchantId, userId: user.id, sessionId: resumed.session.id, user };
}
