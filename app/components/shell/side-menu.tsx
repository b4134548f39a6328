import { Badge, NavLink, ScrollArea, Stack, Text } from "@mantine/core";
import { IconFileReport, IconHelp, IconHome, IconListDetails, IconMail } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { NavLink as RouterNavLink } from "react-router";
import { SECTIONS, type AvailableSections } from "~/domain/merchant/sections";

type Props = {
  lang: string;
  sections: AvailableSections;
  /** Pending-request counts by "section.feature", shown as badges (the Tickets items). */
  counts?: Record<string, number>;
  canReadMailbox: boolean;
  canExport?: boolean;
  /** Sections whose Table Headers settings this user may open. */
  headerSections?: string[];
  onNavigate?: () => void;
};

/** Sections and sub-items appear only when the merchant has them; every item is a plain link. */
export function SideMenu({ lang, sections, counts = {}, headerSections = [], canReadMailbox, canExport = false, onNavigate }: Props) {
  const { t } = useTranslation();
  const link = (to: string, label: string, icon?: React.ReactNode, end = false, count?: number) => (
    <NavLink
      key={to}
      component={RouterNavLink}
      to={`/${lang}${to}`}
      end={end}
      label={label}
      leftSection={icon}
      rightSection={
        count ? (
          <Badge size="sm" circle={count < 10} color="red" title={t("tickets.pending_count", { total: count })}>
            {count > 99 ? "99+" : count}
          </Badge>
        ) : undefined
      }
      onClick={onNavigate}
    />
  );
  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <nav aria-label={t("shell.menu")}>
        <Stack gap={2} p="xs">
          {link("", t("shell.general_info"), <IconHome size={18} />, true)}
          {link("/transactions", t("shell.all_transactions"), <IconListDetails size={18} />)}
          {SECTIONS.filter((section) => sections[section.key]).map((section) =>
            section.features.length === 0 ? (
              link(`/${section.path}`, t(`sections.${section.key}`))
            ) : (
              <div key={section.key}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={2}>
                  {t(`sections.${section.key}`)}
                </Text>
                {section.features
                  .filter((feature) => sections[section.key].includes(feature.key))
                  .map((feature) =>
                    link(`/${section.path}/${feature.path}`, t(`features.${section.key}.${feature.key}`), undefined, false, counts[`${section.key}.${feature.key}`]),
                  )}
                {headerSections.includes(section.key) ? link(`/${section.path}/table-headers`, t("transactions.table_headers")) : null}
              </div>
            ),
          )}
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={2}>
            {t("shell.more")}
          </Text>
          {canExport ? link("/generated-reports", t("shell.generated_reports"), <IconFileReport size={18} />) : null}
          {canReadMailbox ? link("/mailbox", t("shell.mailbox"), <IconMail size={18} />) : null}
          {link("/help", t("shell.help"), <IconHelp size={18} />)}
        </Stack>
      </nav>
    </ScrollArea>
  );
}
