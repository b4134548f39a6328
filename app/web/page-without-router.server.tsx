import { randomBytes } from "node:crypto";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { ServerBuild } from "react-router";
import { NonceProvider } from "~/components/nonce";
import type { DB } from "~/db/database.server";
import { directionOf, isLanguage, type Language } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import { securityHeaders } from "./security-headers.server";
import { runOnCallerClock } from "./test-clock-scope.server";

/** A page a section serves without the router (decision 0011), as its server part declares it. */
export type PageWithoutRouter = {
  path: RegExp;
  routeId: string;
  render: (input: {
    db: DB;
    url: URL;
    cookieHeader: string | null;
    lang: Language;
  }) => Promise<{ status: number; title: string; body: ReactElement } | null>;
};

export type DirectResponse = { status: number; headers: [string, string][]; body: string };

/**
 * The one shell of a page served without the router (docs/decisions/0011): the document the root
 * route renders (language, direction, the stylesheets of `routeIds`), the same security headers
 * and a fresh CSP nonce. The pay page and the sections' busiest customer pages are written out here.
 */
export function renderWithoutRouter(
  build: ServerBuild,
  page: {
    url: URL;
    lang: Language;
    routeIds: readonly string[];
    status: number;
    title: string;
    /** Kept out of search engines (a customer's pay link). */
    noIndex?: boolean;
    body: ReactElement;
  },
): DirectResponse {
  const stylesheets = ["root", "routes/lang", ...page.routeIds].flatMap((id) => build.assets.routes[id]?.css ?? []);
  const nonce = randomBytes(16).toString("base64");
  const html = renderToString(
    <NonceProvider value={nonce}>
      <I18nextProvider i18n={i18nFor(page.lang)}>
        <html lang={page.lang} dir={directionOf(page.lang)} data-mantine-color-scheme="light">
          <head>
            <meta charSet="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <link rel="icon" href="/favicon.svg" />
            <title>{page.title}</title>
            {page.noIndex ? <meta name="robots" content="noindex" /> : null}
            {[...new Set(stylesheets)].map((href) => (
              <link key={href} rel="stylesheet" href={href} />
            ))}
          </head>
          <body>{page.body}</body>
        </html>
      </I18nextProvider>
    </NonceProvider>,
  );
  const headers = securityHeaders({ url: page.url.href }, nonce);
  return {
    status: page.status,
    headers: [...headers, ["Content-Type", "text/html; charset=utf-8"]],
    body: `<!DOCTYPE html>${html}`,
  };
}

/** A redirect answered without the router, with the same security headers. */
export function redirectWithoutRouter(url: URL, location: string): DirectResponse {
  const nonce = randomBytes(16).toString("base64");
  return { status: 302, headers: [...securityHeaders({ url: url.href }, nonce), ["Location", location]], body: "" };
}

/**
 * Serves the sections' busiest customer pages (their `directPages`) without the router: the same
 * view and component as the route, in the one shell above. Null for any other request. The pages and
 * the database are handed by start-up (app/entry.server.tsx): the web layer knows no section and
 * starts nothing.
 */
export function createSectionPagesHandler(
  build: ServerBuild,
  platform: { database: () => Promise<DB>; pages: () => readonly PageWithoutRouter[] },
) {
  const render = async (url: URL, cookieHeader: string | null): Promise<DirectResponse | null> => {
    const lang = url.pathname.split("/")[1];
    if (!isLanguage(lang)) return null;
    const db = await platform.database();
    const page = platform.pages().find((candidate) => candidate.path.test(url.pathname));
    if (!page) return null;
    let result;
    try {
      result = await page.render({ db, url, cookieHeader, lang });
    } catch (thrown) {
      // A page's view that answers otherwise (a 404, a redirect) leaves the request to the router.
      if (thrown instanceof Error) throw thrown;
      return null;
    }
    if (!result) return null;
    return renderWithoutRouter(build, {
      url,
      lang,
      routeIds: [page.routeId],
      status: result.status,
      title: result.title,
      body: result.body,
    });
  };
  return (url: URL, cookieHeader?: string | null) =>
    runOnCallerClock(cookieHeader, () => render(url, cookieHeader ?? null));
}
