import type { DB } from "~/db/database.server";
import { noteMerchant } from "~/lib/log.server";
import { data, redirect, type MiddlewareFunction } from "react-router";
import { resumeSession } from "~/domain/identity/sessions.server";
import { loadSessionUser } from "~/domain/identity/users.server";
import { env } from "~/lib/env.server";
import { isLanguage } from "~/lib/i18n";
import { CORE_ROOT_SEGMENTS } from "./root-segments";
import { authContext, dbContext } from "./request-context.server";
import { SESSION_COOKIE, clearSessionCookie, readCookie, sessionCookie } from "./session-cookie.server";

/**
 * A path without a known language is retried with /en: /login → /en/login. `sectionRootSegments`:
 * the first segments of the sections' routes outside /:lang/, handed by the root route (the web
 * layer knows no section).
 */
export function languageMiddlewareOf(sectionRootSegments: readonly string[]): MiddlewareFunction<Response> {
  const rootSegments = new Set<string>([...CORE_ROOT_SEGMENTS, ...sectionRootSegments]);
  return async ({ request }, next) => {
    const url = new URL(request.url);
    const first = url.pathname.split("/")[1] ?? "";
    if (!isLanguage(first) && !rootSegments.has(first) && first !== "_root.data") {
      const rest = url.pathname === "/" ? "" : url.pathname;
      throw redirect(`/en${rest}${url.search}`);
    }
    if (first === "_root.data") throw redirect("/en");
    return next();
  };
}

/** Puts the database in each request's context; `platform` starts the platform once (app/boot), handed by the root route. */
export function databaseMiddlewareOf(platform: () => Promise<DB>): MiddlewareFunction<Response> {
  return async ({ context }, next) => {
    context.set(dbContext, await platform());
    return next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated mutations must come from our own pages. Browsers send Origin on every
 * POST; a foreign or opaque origin is refused before any action runs. The API is exempt: it
 * authenticates with bearer tokens, which another site cannot attach.
 */
export const crossSiteMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (SAFE_METHODS.has(request.method)) return next();
  const url = new URL(request.url);
  // Bearer-token API calls and gateways' messages (authenticated by signature or encryption) carry no cookies' authority.
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/gateway/")) return next();
  const allowed = new Set([url.origin]);
  const baseUrl = env().BASE_URL;
  if (baseUrl) allowed.add(new URL(baseUrl).origin);
  const origin = request.headers.get("Origin");
  const referer = request.headers.get("Referer");
  const claimed = origin ?? (referer ? safeOrigin(referer) : null);
  if (claimed !== null && !allowed.has(claimed)) {
    throw data({ reason: "cross_site" }, { status: 403 });
  }
  if (request.headers.get("Sec-Fetch-Site") === "cross-site") {
    throw data({ reason: "cross_site" }, { status: 403 });
  }
  return next();
};

function safeOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return "null";
  }
}

/** Resolves the session cookie on every request: idle or over-age sessions end here, server-side. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const url = new URL(request.url);
  const token = url.pathname.startsWith("/api/") ? null : readCookie(request, SESSION_COOKIE);
  if (!token) return next();
  const db = context.get(dbContext)!;
  // A page polling in the background (notifications) must not keep an idle session alive.
  const background = request.method === "GET" && request.headers.get("X-Background-Request") === "1";
  const resumed = await resumeSession(db, token, { touch: !background });
  const user = resumed ? await loadSessionUser(db, resumed.session.user_id) : undefined;
  if (resumed && user && user.merchantId === resumed.session.merchant_id) {
    context.set(authContext, { sessionId: resumed.session.id, sessionToken: token, user });
    noteMerchant(user.merchantId);
  }
  const response = await next();
  const setsSession = (response.headers.get("Set-Cookie") ?? "").includes(`${SESSION_COOKIE}=`);
  if (!setsSession) {
    try {
      if (!context.get(authContext)) response.headers.append("Set-Cookie", clearSessionCookie(request));
      else if (resumed?.touched) response.headers.append("Set-Cookie", sessionCookie(request, token));
    } catch {
      // Some responses have immutable headers; the cookie then simply keeps its previous lifetime.
    }
  }
  return response;
};
