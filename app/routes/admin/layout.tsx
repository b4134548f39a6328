import { NavLink, Outlet, useLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { can } from "~/domain/identity/permissions";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/layout";
import { isLanguage, PAGE_NAMESPACES } from "~/lib/i18n";
import { i18nFor } from "~/lib/i18n.server";
import { requireUser } from "~/web/guards.server";

/**
 * The administration panel's and the operator's pages: their words come with them (the
 * dashboard's catalogue in the browser leaves them out, decision 0020), added before the page
 * renders so the browser writes what the server wrote.
 */
export function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const texts = Object.fromEntries(
    PAGE_NAMESPACES.admin.map((namespace) => [namespace, i18nFor(lang).getResource(lang, "common", namespace)]),
  );
  return { lang, texts, canManage: can(auth.user, "manage_merchant") };
}

/** The panel's pages, in the order its navigation lists them: [path under /admin, label under admin.nav]. */
const PAGES = [
  ["profile", "profile"],
  ["units", "units"],
  ["users", "users"],
  ["roles", "roles"],
  ["gateways", "gateways"],
  ["sections", "sections"],
  ["api-keys", "api_keys"],
  ["webhooks", "webhooks"],
  ["notifications", "notifications"],
  ["audit", "audit"],
] as const;

export default function AdminLayout() {
  const { lang, texts, canManage } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  if (typeof document !== "undefined" && !i18n.exists("admin.profile.title")) {
    i18n.addResourceBundle(lang, "common", texts, true, true);
  }
  return (
    <>
      {canManage ? (
        <nav aria-label={t("admin.nav.label")} className="admin-nav">
          {PAGES.map(([path, label]) => (
            <NavLink key={path} to={`/${lang}/admin/${path}`} className="admin-nav__link">
              {t(`admin.nav.${label}`)}
            </NavLink>
          ))}
        </nav>
      ) : null}
      <Outlet />
    </>
  );
}

// The texts change only with the language.
export function shouldRevalidate({ currentParams, nextParams, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentParams.lang !== nextParams.lang || defaultShouldRevalidate;
}
