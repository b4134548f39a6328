import { Paper, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { ListData } from "./query-params";

export function StatisticsStrip({ statistics }: { statistics: NonNullable<ListData["statistics"]> }) {
  const { t } = useTranslation();
  const items = [
    ["generated", statistics.generated],
    ["received", statistics.received],
    ["balance", statistics.balance],
  ] as const;
  return (
    <section
      className="grid grid--sm-3"
      style={{ marginBottom: "var(--mantine-spacing-md)" }}
      aria-label={t("transactions.statistics")}
    >
      {items.map(([key, values]) => (
        <Paper key={key} withBorder p="md">
          <Text size="sm" c="dimmed">
            {t(`transactions.stats.${key}`)}
          </Text>
          {values.length === 0 ? (
            <Text fw={700}>—</Text>
          ) : (
            values.map((value) => (
              <Text key={value.currency} fw={700} fz="lg" dir="ltr" ta="start">
                {value.text}
              </Text>
            ))
          )}
        </Paper>
      ))}
    </section>
  );
}
