import "./styles/mantine-base";
import "./styles/app.css";
import { ColorSchemeScript, DirectionProvider, MantineProvider, mantineHtmlProps } from "@mantine/core";
import { useTranslation } from "react-i18next";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { ErrorPage } from "./components/error-page";
import { useNonce } from "./components/nonce";
import { loadMerchantBranding } from "./domain/merchants/merchants.server";
import { readFlash } from "./web/flash.server";
import { translator } from "./lib/i18n.server";
import { directionOf, languageOfPath } from "./lib/i18n";
import { testClockScopeMiddleware } from "./web/test-clock-scope.server";
import {
  crossSiteMiddleware,
  databaseMiddlewareOf,
  languageMiddlewareOf,
  sessionMiddleware,
} from "./web/middleware.server";
import { platform } from "./boot/start.server";
import { sectionRootSegments } from "./sections/registry";
import { authContext, getDbFrom } from "./web/request-context.server";
import { cssVariablesResolver, theme } from "./theme";

export const middleware: Route.MiddlewareFunction[] = [
  testClockScopeMiddleware,
  languageMiddlewareOf(sectionRootSegments()),
  databaseMiddlewareOf(platform),
  crossSiteMiddleware,
  sessionMiddleware,
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = context.get(authContext);
  const { flash: stored, clear } = readFlash(request);
  // Written out here: its words may belong to a page's own texts (app/lib/i18n.ts PAGE_NAMESPACES).
  const flash = stored && {
    ...stored,
    text: translator(languageOfPath(new URL(request.url).pathname))(stored.message),
  };
  const branding = auth ? await loadMerchantBranding(getDbFrom(context), auth.user.merchantId) : null;
  return data(
    {
      flash,
      favicon: branding?.favicon_url ?? "/favicon.svg",
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const location = useLocation();
  const lang = languageOfPath(location.pathname);
  const dir = directionOf(lang);
  const rootData = useRouteLoaderData<typeof loader>("root");
  // Customer pages that work as plain HTML opt out of the React bundle (docs/decisions/0005).
  const hydrate = !useMatches().some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
  return (
    <html lang={lang} dir={dir} {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href={rootData?.favicon ?? "/favicon.svg"} />
        <ColorSchemeScript nonce={nonce} defaultColorScheme="light" />
        <Meta />
        <Links />
      </head>
      <body>
        <DirectionProvider initialDirection={dir} detectDirection={false}>
          <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
            {children}
          </MantineProvider>
        </DirectionProvider>
        {hydrate ? <ScrollRestoration nonce={nonce} /> : null}
        {hydrate ? <Scripts nonce={nonce} /> : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <ErrorPage status={404} title={t("errors.not_found_title")} />;
    if (error.status === 403) {
      const crossSite = (error.data as { reason?: string } | undefined)?.reason === "cross_site";
      return (
        <ErrorPage
          status={403}
          title={t("errors.forbidden_title")}
          message={t(crossSite ? "errors.cross_site" : "errors.forbidden_message")}
        />
      );
    }
    if (error.status === 400 && (error.data as { reason?: string } | undefined)?.reason === "unreadable_form") {
      return (
        <ErrorPage
          status={400}
          title={t("errors.unreadable_form_title")}
          message={t("errors.unreadable_form_message")}
        />
      );
    }
    if (error.status === 413) return <ErrorPage status={413} title={t("errors.too_large")} />;
  }
  if (import.meta.env.DEV && error instanceof Error) console.error(error);
  return <ErrorPage status={500} title={t("errors.unexpected_title")} message={t("errors.unexpected_message")} />;
}
