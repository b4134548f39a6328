import { Outlet, useLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/layout";
import { isLanguage } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import { requireUser } from "~/web/guards.server";
import { codePairing } from "../section";

/** The code pairing section's dashboard pages: their words come with them (decision 0020). */
export function loader({ context, request, params }: Route.LoaderArgs) {
  requireUser(context, request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const texts = Object.fromEntries(
    codePairing.namespaces.page.map((namespace) => [
      namespace,
      i18nFor(lang).getResource(lang, "common", namespace) ?? {},
    ]),
  );
  return { lang, texts };
}

export default function CodePairingLayout() {
  const { lang, texts } = useLoaderData<typeof loader>();
  const { i18n } = useTranslation();
  if (typeof document !== "undefined" && !i18n.exists("code_pairing.codes.title")) {
    i18n.addResourceBundle(lang, "common", texts, true, true);
  }
  return <Outlet />;
}

// The texts change only with the language.
export function shouldRevalidate({ currentParams, nextParams, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentParams.lang !== nextParams.lang || defaultShouldRevalidate;
}
