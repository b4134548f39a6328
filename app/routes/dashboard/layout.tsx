import "@mantine/core/styles.css";
import { Box, Text } from "@mantine/core";
import { IconMenu2, IconX } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLoaderData, useLocation, useMatches } from "react-router";
import type { Route } from "./+types/layout";
import { FlashNotice } from "~/components/flash-notice";
import { AccountMenu } from "~/components/shell/account-menu";
import { LiveNotifications } from "~/components/shell/notifications";
import { takeReportNotices } from "~/presentation/notifications.server";
import { SessionExpiry } from "~/components/shell/session-expiry";
import { SideMenu } from "~/components/shell/side-menu";
import type { MenuSection } from "~/components/shell/side-menu";
import { can, tableHeaderPermission } from "~/domain/identity/permissions";
import { SESSION_IDLE_MS } from "~/domain/identity/sessions.server";
import type { SessionUser } from "~/domain/identity/users.server";
import type { DB } from "~/db/database.server";
import { hasTransactions, MENU_SECTIONS, SECTIONS } from "~/sections/registry";
import { sectionServer } from "~/sections/registry.server";
import {
  loadAvailableSections,
  loadMerchantBranding,
  type AvailableSections,
} from "~/domain/merchants/merchants.server";
import { requireUser } from "~/web/guards.server";
import { isLanguage, type Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { getDbFrom } from "~/web/request-context.server";
import { countOpenDifferences } from "~/domain/payments/reconciliation.server";

/** The merchant's sections as this user's menu shows them: express search only for those who may search. */
function menuSections(sections: AvailableSections, user: SessionUser): AvailableSections {
  if (can(user, "view_paymenttransaction") && can(user, "search_paymenttransaction")) return sections;
  const { express_search: _hidden, ...rest } = sections;
  return rest;
}

/**
 * The side menu: every built section the merchant has, in the registry's order, with the features
 * they have, the request counts on Tickets and, for a listing section, Table Headers when the user may
 * change its columns. No entry leads to a page that is not built.
 */
function menuOf(sections: AvailableSections, counts: Record<string, number>, user: SessionUser): MenuSection[] {
  return MENU_SECTIONS.filter((section) => sections[section.key]).map((section): MenuSection => {
    const title = `sections.${section.key}`;
    if (section.features.length === 0) return { key: section.key, title, path: section.path, items: [] };
    const items: MenuSection["items"] = section.features
      .filter((feature) => sections[section.key].includes(feature.key))
      .map((feature) => ({
        path: `${section.path}/${feature.path}`,
        title: `features.${section.key}.${feature.key}`,
        count: counts[`${section.key}.${feature.key}`],
      }));
    if (
      hasTransactions(section) &&
      sections[section.key].includes("transactions") &&
      can(user, tableHeaderPermission(section.key))
    ) {
      items.push({ path: `${section.path}/table-headers`, title: "transactions.table_headers" });
    }
    return { key: section.key, title, items };
  });
}

/**
 * The window titles of the shell's pages by path, from the menu's own labels: the title of a page
 * that names none itself (meta below), for the longest path its address starts with.
 */
function pageTitlesOf(lang: Language, menu: MenuSection[]): [string, string][] {
  const t = translator(lang);
  return [
    [`/${lang}/transactions`, t("shell.all_transactions")],
    ...menu.flatMap((section): [string, string][] =>
      section.path !== undefined
        ? [[`/${lang}/${section.path}`, t(section.title)]]
        : section.items.map((item): [string, string] => [
            `/${lang}/${item.path}`,
            `${t(item.title)} · ${t(section.title)}`,
          ]),
    ),
  ];
}

/** The badges sections put on their features, keyed "section.feature". */
async function menuCountsOf(db: DB, user: SessionUser, sections: AvailableSections) {
  const counts: Record<string, number> = {};
  for (const section of SECTIONS) {
    const features = sections[section.key];
    const menuCounts = features ? sectionServer(section.key)?.menuCounts : undefined;
    if (!menuCounts) continue;
    for (const [feature, count] of Object.entries(
      await menuCounts(db, { merchantId: user.merchantId, user, features }),
    ))
      counts[`${section.key}.${feature}`] = count;
  }
  return counts;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  const db = getDbFrom(context);
  const [branding, sections] = await Promise.all([
    loadMerchantBranding(db, auth.user.merchantId),
    loadAvailableSections(db, auth.user.merchantId),
  ]);
  const [ticketCounts, openDifferences] = await Promise.all([
    menuCountsOf(db, auth.user, sections),
    auth.user.is_superuser ? countOpenDifferences(db, auth.user.merchantId) : null,
  ]);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  // A report finished since the last page: its notice comes with this page, once (with or without
  // JavaScript). Generated reports shows the reports themselves, and takes their notices there.
  const notices = new URL(request.url).pathname.endsWith("/generated-reports")
    ? []
    : await takeReportNotices(
        db,
        { merchantId: auth.user.merchantId, userId: auth.user.id, sessionId: auth.sessionId },
        lang,
      );
  const menu = menuOf(menuSections(sections, auth.user), ticketCounts, auth.user);
  return {
    lang,
    username: auth.user.username,
    canReadMailbox: can(auth.user, "view_outgoing_mail"),
    canExport: can(auth.user, "view_export_settings"),
    canManageMerchant: can(auth.user, "manage_merchant"),
    isOperator: Boolean(auth.user.isOperator),
    reconciliation: openDifferences === null ? null : { open: openDifferences },
    branding: {
      title: params.lang === "ar" ? branding.title_ar : branding.title_en,
      subheader: branding.subheader,
      logoUrl: branding.logo_url,
      // An installation may run its administration elsewhere (the merchant's admin_url); else it is here.
      adminUrl: branding.admin_url ?? (can(auth.user, "manage_merchant") ? `/${lang}/admin` : null),
    },
    menu,
    pageTitles: pageTitlesOf(lang, menu),
    idleMs: SESSION_IDLE_MS,
    notices,
  };
}

/** Pages that give no title of their own get their menu entry's name and the merchant's. */
export function meta({ loaderData, location }: Route.MetaArgs) {
  if (!loaderData) return [];
  const page = loaderData.pageTitles
    .filter(([path]) => location.pathname === path || location.pathname.startsWith(`${path}/`))
    .sort((a, b) => b[0].length - a[0].length)[0]?.[1];
  return [{ title: [page, loaderData.branding.title].filter(Boolean).join(" · ") }];
}

/**
 * The dashboard's frame: a top bar, the side menu (beside the page from 768 px; on a phone it opens
 * over the page from the menu button, or without JavaScript from the Menu link through :target),
 * and the page. Plain elements laid out by app.css (.shell).
 */
export default function DashboardLayout() {
  const { t } = useTranslation();
  const {
    lang,
    username,
    branding,
    menu,
    canReadMailbox,
    canExport,
    canManageMerchant,
    isOperator,
    reconciliation,
    idleMs,
    notices,
  } = useLoaderData<typeof loader>();
  const [opened, setOpened] = useState(false);
  const location = useLocation();
  // The menu on a phone closes once a link in it has been followed.
  useEffect(() => setOpened(false), [location.key]);
  // A page for a kitchen screen or a printer (handle: { bare: true }) is shown without the frame.
  const bare = useMatches().some((match) => (match.handle as { bare?: boolean } | undefined)?.bare === true);
  if (bare) {
    return (
      <main>
        <FlashNotice />
        <Outlet />
        <SessionExpiry lang={lang} idleMs={idleMs} />
      </main>
    );
  }
  return (
    <div className="shell" data-menu-open={opened || undefined}>
      <header className="shell__header right-scroll-bar-position">
        <div className="shell__brand">
          <button
            type="button"
            className="shell__burger js-only"
            aria-label={t("shell.menu")}
            aria-expanded={opened}
            aria-controls="main-menu"
            onClick={() => setOpened((open) => !open)}
          >
            {opened ? <IconX size={22} aria-hidden /> : <IconMenu2 size={22} aria-hidden />}
          </button>
          {/* Without JavaScript the button cannot toggle; this link opens the menu through :target instead. */}
          <noscript>
            <style>{".js-only{display:none!important}"}</style>
            <a href="#main-menu" className="no-js-menu-link">
              {t("shell.menu")}
            </a>
          </noscript>
          <Link to={`/${lang}`} className="shell__home">
            {branding.logoUrl ? <img src={branding.logoUrl} alt="" height={36} className="shell__logo" /> : null}
            <Box visibleFrom="xs">
              <Text fw={700} lh={1.2}>
                {branding.title}
              </Text>
              {branding.subheader ? (
                <Text size="xs" c="dimmed">
                  {branding.subheader}
                </Text>
              ) : null}
            </Box>
          </Link>
        </div>
        <AccountMenu lang={lang} username={username} adminUrl={branding.adminUrl} />
      </header>
      <div className="shell__navbar" id="main-menu">
        <SideMenu
          lang={lang}
          sections={menu}
          canReadMailbox={canReadMailbox}
          canExport={canExport}
          canManageMerchant={canManageMerchant}
          isOperator={isOperator}
          reconciliation={reconciliation}
        />
      </div>
      <main className="shell__main">
        <Box maw={1200} mx="auto">
          <FlashNotice />
          <Outlet />
        </Box>
      </main>
      <SessionExpiry lang={lang} idleMs={idleMs} />
      <LiveNotifications lang={lang} idleMs={idleMs} initial={notices} />
    </div>
  );
}
