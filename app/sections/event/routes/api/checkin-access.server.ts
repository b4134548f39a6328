import type { RouterContextProvider } from "react-router";
import { can, type Permission } from "~/domain/identity/permissions";
import { resumeSession } from "~/domain/identity/sessions.server";
import { loadSessionUser, type SessionUser } from "~/domain/identity/users.server";
import { hasFeature, loadAvailableSections } from "~/domain/merchants/merchants.server";
import { env } from "~/lib/env.server";
import type { Language } from "~/lib/i18n";
import { apiDetail, apiLanguage, requireApiUser, userOnPlugin } from "~/web/api.server";
import { getDbFrom } from "~/web/request-context.server";
import { readCookie, SESSION_COOKIE } from "~/web/session-cookie.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The user at the door: a bearer token or an `Api-Key` (a merchant's own scanners), or the
 * dashboard's session cookie (the check-in page's own calls, which keep working between page loads).
 * A cookie's mutation must come from our own pages: the API is otherwise exempt from that check
 * (middleware.server.ts), since bearer tokens are never sent by another site. A merchant without the
 * fulfilment feature answers 404; a user without every permission named, 403.
 */
export async function requireCheckinApi(
  request: Request,
  context: Context,
  permissions: readonly Permission[],
): Promise<{ user: SessionUser; db: ReturnType<typeof getDbFrom>; lang: Language }> {
  const db = getDbFrom(context);
  const lang = apiLanguage(request);
  let user: SessionUser | null;
  if (request.headers.get("Authorization")) {
    user = userOnPlugin((await requireApiUser(request, context, { apiKey: true })).user, "event");
    if (!user) throw apiDetail(request, "api.not_found", 404);
  } else {
    user = await cookieUser(request, db);
    if (!user) throw apiDetail(request, "api.not_authenticated", 401);
  }
  if (!hasFeature(await loadAvailableSections(db, user.merchantId), "event", "fulfillment"))
    throw apiDetail(request, "api.not_found", 404);
  if (!permissions.every((permission) => can(user, permission))) throw apiDetail(request, "api.permission_denied", 403);
  return { user, db, lang };
}

async function cookieUser(request: Request, db: ReturnType<typeof getDbFrom>): Promise<SessionUser | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) return null;
  if (request.method !== "GET" && request.method !== "HEAD" && !fromOwnPage(request))
    throw apiDetail(request, "api.permission_denied", 403);
  const resumed = await resumeSession(db, token, { touch: true });
  const user = resumed ? await loadSessionUser(db, resumed.session.user_id) : undefined;
  return resumed && user && user.merchantId === resumed.session.merchant_id ? user : null;
}

function fromOwnPage(request: Request) {
  const url = new URL(request.url);
  const allowed = new Set([url.origin]);
  const baseUrl = env().BASE_URL;
  if (baseUrl) allowed.add(new URL(baseUrl).origin);
  const origin = request.headers.get("Origin");
  if (origin === null || !allowed.has(origin)) return false;
  return request.headers.get("Sec-Fetch-Site") !== "cross-site";
}

/** A positive integer id from a query or a body, or null. */
export function eventIdOf(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}
