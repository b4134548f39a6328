import { Badge, Stack, Text } from "@mantine/core";
import {
  IconBuildingStore,
  IconFileReport,
  IconHelp,
  IconHome,
  IconListDetails,
  IconMail,
  IconScale,
} from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { NavLink as RouterNavLink } from "react-router";

/** One section as the menu shows it: a single link, or a heading over its features' links. */
export type MenuSection = {
  key: string;
  /** Translation key of its name. */
  title: string;
  /** A section without features is one link. */
  path?: string;
  items: { path: string; title: string; count?: number }[];
};

type Props = {
  lang: string;
  /** The merchant's sections and features this menu shows, in order (the layout's loader reads the registry). */
  sections: MenuSection[];
  canReadMailbox: boolean;
  canExport?: boolean;
  /** The administration panel (manage_merchant): one entry; the panel has its own navigation. */
  canManageMerchant?: boolean;
  /** The platform's operator: the page that creates merchants. */
  isOperator?: boolean;
  /** Superusers only: the reconciliation report, with its open differences counted. */
  reconciliation?: { open: number } | null;
};

/**
 * Sections and sub-items appear only when the merchant has them; every item is a plain link, the
 * current page's marked (aria-current, styled by app.css .side-link).
 */
export function SideMenu({
  lang,
  sections,
  canReadMailbox,
  canExport = false,
  canManageMerchant = false,
  isOperator = false,
  reconciliation = null,
}: Props) {
  const { t } = useTranslation();
  const link = (
    to: string,
    label: string,
    icon?: React.ReactNode,
    end = false,
    count?: number,
    countTitle = "tickets.pending_count",
  ) => (
    <RouterNavLink key={to} to={`/${lang}${to}`} end={end} className="side-link">
      {icon ? <span className="side-link__icon">{icon}</span> : null}
      <span className="side-link__label">{label}</span>
      {count ? (
        <Badge size="sm" circle={count < 10} color="red" title={t(countTitle, { total: count })}>
          {count > 99 ? "99+" : count}
        </Badge>
      ) : null}
    </RouterNavLink>
  );
  return (
    <nav aria-label={t("shell.menu")} className="side-menu">
      <Stack gap={2} p="xs">
        {link("", t("shell.general_info"), <IconHome size={18} />, true)}
        {link("/transactions", t("shell.all_transactions"), <IconListDetails size={18} />)}
        {sections.map((section) =>
          section.path !== undefined ? (
            link(`/${section.path}`, t(section.title))
          ) : (
            <div key={section.key}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={2}>
                {t(section.title)}
              </Text>
              {section.items.map((item) => link(`/${item.path}`, t(item.title), undefined, false, item.count))}
            </div>
          ),
        )}
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={2}>
          {t("shell.more")}
        </Text>
        {canExport ? link("/generated-reports", t("shell.generated_reports"), <IconFileReport size={18} />) : null}
        {canReadMailbox ? link("/mailbox", t("shell.mailbox"), <IconMail size={18} />) : null}
        {reconciliation
          ? link(
              "/reconciliation",
              t("shell.reconciliation"),
              <IconScale size={18} />,
              false,
              reconciliation.open,
              "shell.reconciliation_open_count",
            )
          : null}
        {link("/help", t("shell.help"), <IconHelp size={18} />)}
        {canManageMerchant ? link("/admin", t("shell.administration"), <IconBuildingStore size={18} />) : null}
        {isOperator ? link("/operator", t("shell.operator"), <IconBuildingStore size={18} />) : null}
      </Stack>
    </nav>
  );
}
