import { Outlet, useLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/layout";
import { isLanguage } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import { requireUser } from "~/web/guards.server";
import { foodOrdering } from "../section";

/**
 * The food-ordering section's dashboard pages (set-up, branches, orders, bulk create): their words
 * come with them, so the rest of the dashboard does not carry them (decision 0020), added before
 * the page renders so the browser writes what the server wrote.
 */
export function loader({ context, request, params }: Route.LoaderArgs) {
  requireUser(context, request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const texts = Object.fromEntries(
    foodOrdering.namespaces.page.map((namespace) => [
      namespace,
      i18nFor(lang).getResource(lang, "common", namespace) ?? {},
    ]),
  );
  return { lang, texts };
}

export default function FoodLayout() {
  const { lang, texts } = useLoaderData<typeof loader>();
  const { i18n } = useTranslation();
  if (typeof document !== "undefined" && !i18n.exists("food_setup.nav.branches")) {
    i18n.addResourceBundle(lang, "common", texts, true, true);
  }
  return <Outlet />;
}

// The texts change only with the language.
export function shouldRevalidate({ currentParams, nextParams, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentParams.lang !== nextParams.lang || defaultShouldRevalidate;
}
