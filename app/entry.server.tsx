import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { ServerRouter, type EntryContext, type HandleDataRequestFunction, type ServerBuild } from "react-router";
import { randomBytes } from "node:crypto";
import { NonceProvider } from "./components/nonce";
import { env } from "./lib/env.server";
import { languageOfPath } from "./lib/i18n";
import { i18nFor } from "./lib/i18n.server";
import { platform } from "./boot/start.server";
import { directPages } from "./sections/registry.server";
import { createSectionPagesHandler as createSectionPagesHandlerOf } from "./web/page-without-router.server";
import { securityHeaders } from "./web/security-headers.server";
import { provideSlotModules } from "~/components/slots.server";

export { createLoadContext } from "./web/request-context.server";
export { bootstrap } from "./boot/start.server";

// The server's entry: what it starts is started here, by name, never by importing a module.
provideSlotModules();

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");
  const lang = languageOfPath(new URL(request.url).pathname);
  // The dev server injects inline scripts of its own; every other mode gets the CSP.
  const production = env().NODE_ENV !== "development";
  for (const [name, value] of securityHeaders(request, production ? nonce : null)) responseHeaders.set(name, value);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Bots and no-JS clients get the whole document at once; browsers get it streamed.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18nFor(lang)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        // A Suspense boundary whose content is ready is written where it stands. By default React
        // moves one that comes after the first 12.8 KB to the end of the stream, hidden, for a script
        // to put in place: without JavaScript it would never show (lazy dialogs, components/lazy-slot.tsx).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  for (const [name, value] of securityHeaders(request, null)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
};

export { createPayPageHandler, PAY_PAGE_PATH } from "./routes/pay/pay-page-handler.server";
/** The sections' direct pages (the food menu), handed the platform and the sections' pages here, at start-up. */
export function createSectionPagesHandler(build: ServerBuild) {
  return createSectionPagesHandlerOf(build, { database: platform, pages: directPages });
}
export { createCustomerFirst } from "./web/customer-first.server";
export { createMetricsHandler, createRequestObserver } from "./web/observability.server";
export { log } from "./lib/log.server";
