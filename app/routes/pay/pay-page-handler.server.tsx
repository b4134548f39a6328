import { randomBytes } from "node:crypto";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { ServerBuild } from "react-router";
import { NonceProvider } from "~/components/nonce";
import { platform } from "~/boot/start.server";
import { directionOf, isLanguage } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import { platformAddresses } from "~/web/addresses.server";
import { securityHeaders } from "~/web/security-headers.server";
import { isPersonVisit } from "~/web/visitors.server";
import { runOnCallerClock } from "~/web/test-clock-scope.server";
import { PayPage, payPageTitle } from "./pay";
import { payPageView } from "~/presentation/pay-view.server";
import { CHECKOUT_FIELD_SECTIONS, PAYABLE_SECTIONS } from "~/sections/registry";

export type DirectResponse = { status: number; headers: [string, string][]; body: string };

/** The pay page's path: /en/pay/<22-character id>, with or without a trailing slash. */
export const PAY_PAGE_PATH = /^\/(en|ar)\/pay\/([0-9A-Za-z]{22})\/?$/;

/**
 * Serves GET /:lang/pay/:transactionId without the router: the most visited page, on customers'
 * phones, is rendered from the same view function and components as the route (pay.tsx), but
 * skips matching the whole route table, the dashboard's middleware and the streaming renderer
 * (docs/decisions/0011). Everything else on that path (posting the form) goes through the router.
 */
export function createPayPageHandler(build: ServerBuild) {
  const stylesheets = ["root", "routes/lang", "routes/pay/pay"].flatMap((id) => build.assets.routes[id]?.css ?? []);
  const render = async (url: URL, visit: { opens: boolean }): Promise<DirectResponse | null> => {
    const match = PAY_PAGE_PATH.exec(url.pathname);
    if (!match || !isLanguage(match[1])) return null;
    const lang = match[1];
    const result = await payPageView(
      await platform(),
      { payable: PAYABLE_SECTIONS, checkoutFields: CHECKOUT_FIELD_SECTIONS },
      lang,
      match[2]!,
      url.searchParams,
      visit,
      platformAddresses(new Request(url)),
    );
    const nonce = randomBytes(16).toString("base64");
    const headers = securityHeaders({ url: url.href }, nonce);
    if (result.kind === "redirect")
      return { status: 302, headers: [...headers, ["Location", result.location]], body: "" };
    const page = result.page;
    const html = renderToString(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18nFor(lang)}>
          <html lang={lang} dir={directionOf(lang)} data-mantine-color-scheme="light">
            <head>
              <meta charSet="utf-8" />
              <meta name="viewport" content="width=device-width, initial-scale=1" />
              <link rel="icon" href="/favicon.svg" />
              <title>{payPageTitle(page)}</title>
              <meta name="robots" content="noindex" />
              {stylesheets.map((href) => (
                <link key={href} rel="stylesheet" href={href} />
              ))}
            </head>
            <body>
              <PayPage page={page} path={url.pathname + url.search} />
            </body>
          </html>
        </I18nextProvider>
      </NonceProvider>,
    );
    return {
      status: result.httpStatus,
      headers: [...headers, ["Content-Type", "text/html; charset=utf-8"]],
      body: `<!DOCTYPE html>${html}`,
    };
  };
  /** `request`: the method and headers, for whether a person is opening the link (decision 0036). */
  return (
    url: URL,
    cookieHeader?: string | null,
    request: Pick<Request, "method" | "headers"> = { method: "GET", headers: new Headers() },
  ) => runOnCallerClock(cookieHeader, () => render(url, { opens: isPersonVisit(request) }));
}
