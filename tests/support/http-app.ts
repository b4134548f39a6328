import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "react-router";

type RequestOptions = {
  method?: string;
  form?: Record<string, string>;
  json?: unknown;
  /** A body sent as it is (multipart FormData, for instance). */
  body?: BodyInit;
  headers?: Record<string, string>;
  cookie?: string | null;
  ip?: string;
};

/** A phone's browser, as customers' requests name themselves. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

export type TestApp = Awaited<ReturnType<typeof loadApp>>;

/**
 * The production server build, driven in-process: requests go through the same handler, middleware
 * and routes as on a real server. Build first (`npm run build`); `env` points it at a test database.
 */
export async function loadApp(env: Record<string, string>) {
  Object.assign(process.env, env, { WORKER: "off", TEST_CLOCK: "1" });
  const buildPath = pathToFileURL(path.resolve("build/server/index.js")).href;
  const build = (await import(/* @vite-ignore */ buildPath)) as ServerBuild & {
    entry: {
      module: {
        createLoadContext: (input: { clientAddress: string | null }) => any;
        createPayPageHandler: (
          build: ServerBuild,
        ) => (
          url: URL,
          cookieHeader?: string | null,
          request?: { method: string; headers: Headers },
        ) => Promise<{ status: number; headers: [string, string][]; body: string } | null>;
        createSectionPagesHandler: (
          build: ServerBuild,
        ) => (
          url: URL,
          cookieHeader?: string | null,
        ) => Promise<{ status: number; headers: [string, string][]; body: string } | null>;
      };
    };
  };
  const handler = createRequestHandler(build, "production");
  const origin = "http://localhost";
  // Like a browser, the app keeps the cookie that POST /__test/clock sets and sends it from then on.
  let clockCookie: string | null = null;

  async function request(pathname: string, options: RequestOptions = {}) {
    const headers = new Headers(options.headers);
    // Like a browser, name one; a test of what a link previewer or a script sends sets its own.
    if (!headers.has("User-Agent")) headers.set("User-Agent", BROWSER_USER_AGENT);
    if (options.cookie) headers.set("Cookie", options.cookie);
    if (clockCookie) headers.set("Cookie", [headers.get("Cookie"), clockCookie].filter(Boolean).join("; "));
    let body: BodyInit | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form);
      headers.set("Content-Type", "application/x-www-form-urlencoded");
    } else if (options.body !== undefined) {
      body = options.body;
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers.set("Content-Type", "application/json");
    }
    const method = options.method ?? (body ? "POST" : "GET");
    // Like a browser, send our Origin on a mutation; an empty Origin option sends none at all.
    if (method !== "GET" && !headers.has("Origin") && !pathname.startsWith("/api/")) headers.set("Origin", origin);
    if (headers.get("Origin") === "") headers.delete("Origin");
    const req = new Request(`${origin}${pathname}`, { method, headers, body, redirect: "manual" });
    const response = await handler(
      req,
      build.entry.module.createLoadContext({ clientAddress: options.ip ?? "127.0.0.1" }),
    );
    clockCookie = testClockCookieFrom(response.headers.getSetCookie()) ?? clockCookie;
    return response;
  }

  /** Signs in through the login form and returns the session cookie ("kp_session=..."). */
  async function signIn(username: string, password: string, lang = "en") {
    const response = await request(`/${lang}/login`, { form: { intent: "login", username, password } });
    const cookie = sessionCookieFrom(response);
    if (!cookie) throw new Error(`Sign-in failed for ${username}: HTTP ${response.status}`);
    return cookie;
  }

  async function apiToken(username: string, password: string) {
    const response = await request("/api/v1/user/token/", { json: { username, password } });
    return (await response.json()) as { access: string; refresh: string; sessionid: string };
  }

  /** The pay page's direct handler, as server.js mounts it in front of the router. */
  const renderPayPage = build.entry.module.createPayPageHandler(build);
  async function requestPayPage(pathname: string, userAgent = BROWSER_USER_AGENT) {
    const page = await renderPayPage(new URL(pathname, origin), clockCookie, {
      method: "GET",
      headers: new Headers({ "User-Agent": userAgent }),
    });
    if (!page) throw new Error(`The pay page handler does not serve ${pathname}`);
    return new Response(page.body || null, { status: page.status, headers: page.headers });
  }

  /** The sections' direct pages (the food menu), as server.js mounts them in front of the router. */
  const renderSectionPage = build.entry.module.createSectionPagesHandler(build);
  async function requestSectionPage(pathname: string, cookie?: string) {
    const page = await renderSectionPage(
      new URL(pathname, origin),
      [clockCookie, cookie].filter(Boolean).join("; ") || null,
    );
    if (!page) return null;
    return new Response(page.body || null, { status: page.status, headers: page.headers });
  }

  return { request, requestPayPage, requestSectionPage, signIn, apiToken };
}

/** "kp_test_clock=<ms>" from Set-Cookie values, if POST /__test/clock answered them. */
function testClockCookieFrom(setCookies: string[]): string | null {
  for (const header of setCookies) {
    const match = /^kp_test_clock=-?\d+/.exec(header);
    if (match) return match[0];
  }
  return null;
}

export function sessionCookieFrom(response: Response): string | null {
  for (const header of response.headers.getSetCookie()) {
    const match = /^(kp_session=[^;]+)/.exec(header);
    if (match && match[1] !== "kp_session=") return match[1];
  }
  return null;
}
