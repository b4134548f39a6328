import { Anchor, Badge, Box, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconTrendingDown, IconTrendingUp, IconMinus } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { HomeStatistics } from "./home.server";
import { Sparkline } from "./svg-charts";

function Growth({ value, text }: { value: number | null; text: string | null }) {
  const { t } = useTranslation();
  if (value === null || text === null) {
    return (
      <Text size="xs" c="dimmed">
        {t("statistics.no_previous")}
      </Text>
    );
  }
  const color = value > 0 ? "teal" : value < 0 ? "red" : "gray";
  const Icon = value > 0 ? IconTrendingUp : value < 0 ? IconTrendingDown : IconMinus;
  return (
    <Badge
      color={color}
      variant="light"
      size="md"
      leftSection={<Icon size={14} aria-hidden />}
      style={{ textTransform: "none" }}
    >
      {text}
    </Badge>
  );
}

/** A small trend line; the numbers are in the trend table. */
function Trend({ data, color }: { data: (number | null)[]; color: string }) {
  return (
    <Box h={48} mt="auto" pt="sm" className="mirror-rtl" aria-hidden>
      <Sparkline data={data} color={color} />
    </Box>
  );
}

function Tile({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="lg" className="stat-tile" component="section" aria-label={title}>
      <Text size="sm" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
        {title}
      </Text>
      {children}
    </Card>
  );
}

export function StatisticTiles({ statistics }: { statistics: HomeStatistics }) {
  const { t } = useTranslation();
  const { totalPaid, amountPaid, successRate } = statistics;
  const [main, ...others] = amountPaid;
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Tile title={t("statistics.total_paid")}>
        {statistics.listUrl ? (
          <Anchor
            component={Link}
            to={statistics.listUrl}
            underline="hover"
            c="inherit"
            className="stat-value"
            mt={6}
            aria-label={t("statistics.view_paid_count", { value: totalPaid.text })}
          >
            {totalPaid.text}
          </Anchor>
        ) : (
          <Text className="stat-value" mt={6}>
            {totalPaid.text}
          </Text>
        )}
        <Group gap="xs" mt={6}>
          <Growth value={totalPaid.growth} text={totalPaid.growthText} />
          <Text size="xs" c="dimmed">
            {t("statistics.previous_value", { value: totalPaid.previous })}
          </Text>
        </Group>
        {statistics.listUrl ? (
          <Anchor component={Link} to={statistics.listUrl} size="sm" mt={6}>
            {t("statistics.view_paid")}
          </Anchor>
        ) : null}
        <Trend data={totalPaid.chart} color="brand.6" />
      </Tile>

      <Tile title={t("statistics.gmv")}>
        {main ? (
          <>
            <Text className="stat-value" mt={6} dir="ltr" ta="start">
              {main.text}
            </Text>
            <Group gap="xs" mt={6}>
              <Growth value={main.growth} text={main.growthText} />
              <Text size="xs" c="dimmed">
                {t("statistics.previous_value", { value: main.previous })}
              </Text>
            </Group>
            {others.length ? (
              <Stack gap={4} mt="sm">
                {others.map((figure) => (
                  <Group key={figure.currency} gap="xs" justify="space-between" wrap="nowrap">
                    <Text fw={600} dir="ltr">
                      {figure.text}
                    </Text>
                    <Growth value={figure.growth} text={figure.growthText} />
                  </Group>
                ))}
              </Stack>
            ) : null}
            <Trend data={main.chart} color="blue.6" />
          </>
        ) : (
          <>
            <Text className="stat-value" mt={6}>
              0
            </Text>
            <Text size="xs" c="dimmed" mt={6}>
              {t("statistics.no_payments")}
            </Text>
          </>
        )}
      </Tile>

      <Tile title={t("statistics.success_rate")}>
        <Text className="stat-value" mt={6}>
          {successRate.text}
        </Text>
        <Group gap="xs" mt={6}>
          <Growth value={successRate.growth} text={successRate.growthText} />
          <Text size="xs" c="dimmed">
            {t("statistics.previous_value", { value: successRate.previous })}
          </Text>
        </Group>
        <Text size="sm" c="dimmed" mt={6}>
          {successRate.detail}
        </Text>
        <Trend data={successRate.chart} color="teal.6" />
      </Tile>
    </SimpleGrid>
  );
}

/** The tiles' trend lines as numbers: for screen readers, and shown when JavaScript is off. */
export function TrendTable({ statistics }: { statistics: HomeStatistics }) {
  const { t } = useTranslation();
  if (statistics.buckets.length === 0) return null;
  return (
    <Card
      withBorder
      padding="lg"
      className="chart-table"
      component="section"
      aria-label={t(`statistics.trend_title.${statistics.granularity}`)}
    >
      <Title order={2} fz="h5" mb="sm">
        {t(`statistics.trend_title.${statistics.granularity}`)}
      </Title>
      <Table striped className="figure-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t(`statistics.bucket.${statistics.granularity}`)}</Table.Th>
            <Table.Th>{t("statistics.total_paid")}</Table.Th>
            {statistics.amountPaid.map((figure) => (
              <Table.Th key={figure.currency}>{t("statistics.gmv_in", { currency: figure.currency })}</Table.Th>
            ))}
            <Table.Th>{t("statistics.success_rate")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statistics.buckets.map((bucket, index) => (
            <Table.Tr key={bucket.key}>
              <Table.Th scope="row" fw={400}>
                {bucket.label}
              </Table.Th>
              <Table.Td>{statistics.totalPaid.chartTexts[index]}</Table.Td>
              {statistics.amountPaid.map((figure) => (
                <Table.Td key={figure.currency} dir="ltr" ta="start">
                  {figure.chartTexts[index]}
                </Table.Td>
              ))}
              <Table.Td>{statistics.successRate.chartTexts[index]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
