import { randomBytes } from "node:crypto";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { ServerBuild } from "react-router";
import { NonceProvider } from "~/components/nonce";
import { platform } from "~/boot/start.server";
import { directionOf, isLanguage } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import { directPages } from "~/sections/registry.server";
import { securityHeaders } from "./security-headers.server";
import { runOnCallerClock } from "./test-clock-scope.server";

export type DirectResponse = { status: number; headers: [string, string][]; body: string };

/**
 * Serves the sections' busiest customer pages (their `directPages`) without the router, as the pay
 * page is (docs/decisions/0011): the same view and component as the route, rendered with
 * renderToString, the same security headers and a fresh CSP nonce. Null for any other request.
 */
export function createSectionPagesHandler(build: ServerBuild) {
  const render = async (url: URL, cookieHeader: string | null): Promise<DirectResponse | null> => {
    const lang = url.pathname.split("/")[1];
    if (!isLanguage(lang)) return null;
    const db = await platform();
    const page = directPages().find((candidate) => candidate.path.test(url.pathname));
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
    const stylesheets = ["root", "routes/lang", page.routeId].flatMap((id) => build.assets.routes[id]?.css ?? []);
    const nonce = randomBytes(16).toString("base64");
    const html = renderToString(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18nFor(lang)}>
          <html lang={lang} dir={directionOf(lang)} data-mantine-color-scheme="light">
            <head>
              <meta charSet="utf-8" />
              <meta name="viewport" content="width=device-width, initial-scale=1" />
              <link rel="icon" href="/favicon.svg" />
              <title>{result.title}</title>
              {[...new Set(stylesheets)].map((href) => (
                <link key={href} rel="stylesheet" href={href} />
              ))}
            </head>
            <body>{result.body}</body>
          </html>
        </I18nextProvider>
      </NonceProvider>,
    );
    const headers = securityHeaders({ url: url.href }, nonce);
    return {
      status: result.status,
      headers: [...headers, ["Content-Type", "text/html; charset=utf-8"]],
      body: `<!DOCTYPE html>${html}`,
    };
  };
  return (url: URL, cookieHeader?: string | null) =>
    runOnCallerClock(cookieHeader, () => render(url, cookieHeader ?? null));
}
