import { Card, SimpleGrid, Text } from "@mantine/core";
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
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md" aria-label={t("transactions.statistics")} component="section">
      {items.map(([key, values]) => (
        <Card key={key} withBorder padding="md">
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
        </Card>
      ))}
    </SimpleGrid>
  );
}

