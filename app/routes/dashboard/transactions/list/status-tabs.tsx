import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ListData } from "./query-params";

/**
 * All, Paid, Pending, Failed, Refunded above the list: plain links that set the state filter in the
 * query string (so they work without JavaScript and can be shared), the list shown marked as current.
 */
export function StatusTabs({ tabs, basePath }: { tabs: ListData["tabs"]; basePath: string }) {
  const { t } = useTranslation();
  if (tabs.length === 0) return null;
  return (
    <nav aria-label={t("transactions.tabs.label")}>
      <Group gap={4} className="status-tabs" style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}>
        {tabs.map((tab) => (
          <Button
            key={tab.key}
            component={Link}
            to={`${basePath}${tab.search}`}
            aria-current={tab.current ? "page" : undefined}
            variant={tab.current ? "light" : "subtle"}
            color={tab.current ? "blue" : "gray"}
            size="compact-sm"
            radius={0}
            style={{
              borderBottom: tab.current ? "2px solid var(--mantine-color-blue-filled)" : "2px solid transparent",
              marginBottom: -1,
            }}
          >
            {t(`transactions.tabs.${tab.key}`)}
          </Button>
        ))}
      </Group>
    </nav>
  );
}
