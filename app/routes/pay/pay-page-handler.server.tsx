import type { ServerBuild } from "react-router";
import { platform } from "~/boot/start.server";
import { isLanguage } from "~/lib/i18n";
import { platformAddresses } from "~/web/addresses.server";
import { isPersonVisit } from "~/web/visitors.server";
import { redirectWithoutRouter, renderWithoutRouter, type DirectResponse } from "~/web/page-without-router.server";
import { runOnCallerClock } from "~/web/test-clock-scope.server";
import { PayPage, payPageTitle } from "./pay";
import { payPageView } from "~/presentation/pay-view.server";
import { CHECKOUT_FIELD_SECTIONS, PAYABLE_SECTIONS } from "~/sections/registry";

/** The pay page's path: /en/pay/<22-character id>, with or without a trailing slash. */
export const PAY_PAGE_PATH = /^\/(en|ar)\/pay\/([0-9A-Za-z]{22})\/?$/;

/**
 * Serves GET /:lang/pay/:transactionId without the router: the most visited page, on customers'
 * phones, is rendered from the same view function and components as the route (pay.tsx), but
 * skips matching the whole route table, the dashboard's middleware and the streaming renderer
 * (docs/decisions/0011), in the one shell of such pages (web/page-without-router.server.tsx). Everything else on that path (posting the form) goes through the router.
 */
export function createPayPageHandler(build: ServerBuild) {
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
    if (result.kind === "redirect") return redirectWithoutRouter(url, result.location);
    const page = result.page;
    return renderWithoutRouter(build, {
      url,
      lang,
      routeIds: ["routes/pay/pay"],
      status: result.httpStatus,
      title: payPageTitle(page),
      noIndex: true,
      body: <PayPage page={page} path={url.pathname + url.search} />,
    });
  };
  /** `request`: the method and headers, for whether a person is opening the link (decision 0036). */
  return (
    url: URL,
    cookieHeader?: string | null,
    request: Pick<Request, "method" | "headers"> = { method: "GET", headers: new Headers() },
  ) => runOnCallerClock(cookieHeader, () => render(url, { opens: isPersonVisit(request) }));
}
