import type { Route } from "./+types/notifications";
import { markNotificationsRead, takeNotifications } from "~/domain/messaging/notifications.server";
import { unreadNotices } from "~/presentation/notifications.server";
import { isLanguage } from "~/lib/i18n";
import { authContext, getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

function json(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * GET: the notices still to show in this session (unread, arrived since sign-in), in the page's
 * language, a report's with its file name. The shell shows each once and marks it seen (POST).
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const auth = context.get(authContext);
  if (!auth) return json({ notifications: [] }, 401);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const notices = await unreadNotices(
    getDbFrom(context),
    { merchantId: auth.user.merchantId, userId: auth.user.id, sessionId: auth.sessionId },
    lang,
  );
  return json({ notifications: notices });
}

/**
 * POST id (repeated): marks those seen and answers the ids this request marked (`taken`): the shell
 * shows only those, so a notice the page's own data took meanwhile is not shown twice. Without an
 * id, marks all of them.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const auth = context.get(authContext);
  if (!auth) return json({ ok: false }, 401);
  if (request.method !== "POST") return json({ ok: false }, 405);
  const form = await readFormData(request);
  const ids = form
    .getAll("id")
    .filter((value): value is string => typeof value === "string" && /^\d{1,12}$/.test(value))
    .map(Number)
    .slice(0, 100);
  const recipient = { merchantId: auth.user.merchantId, userId: auth.user.id };
  if (!form.has("id"))
    return json({ ok: true, marked: await markNotificationsRead(getDbFrom(context), recipient), taken: [] });
  const taken = await takeNotifications(getDbFrom(context), recipient, ids);
  return json({ ok: true, marked: taken.length, taken });
}
