import { Anchor, Box, Button, Card, Group, NativeSelect, Progress, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { BarsList, DonutChart, LineChart } from "@mantine/charts";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSubmit } from "react-router";
import type { HomeData, HomeStatistics } from "./home.server";

/** The charts' colours, the brand's orange first. */
export const CHART_COLORS = ["brand.6", "blue.6", "teal.6", "grape.6", "yellow.6", "cyan.6", "pink.6", "indigo.6"];

function ChartCard({ title, action, children }: { title: string; action?: React.ReactNode; children: React.ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <Title order={2} fz="h5">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/**
 * Where a chart draws once JavaScript runs; empty and hidden without it (the table shows instead).
 * The SVG is laid out left to right in both languages (its axes are mirrored for Arabic instead):
 * in a right-to-left box its labels would run into the bars.
 */
function ChartBox({ height, width, children, hydrated }: { height: number; width?: number; children: React.ReactNode; hydrated: boolean }) {
  return (
    <Box h={height} w={width} className="chart-box" aria-hidden dir="ltr">
      {hydrated ? children : null}
    </Box>
  );
}

function Empty() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" size="sm" py="xl" ta="center">
      {t("statistics.no_data")}
    </Text>
  );
}

export function AverageSizeCard({ data, hydrated }: { data: HomeData; hydrated: boolean }) {
  const { t, i18n } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const average = data.average!;
  const rtl = i18n.dir() === "rtl";
  const hasData = average.months.some((month) => Object.values(month.values).some((value) => value !== null));
  const chartData = average.months.map((month) => ({ month: month.label, ...month.values }));
  return (
    <ChartCard
      title={t("statistics.average_title")}
      action={
        <Form method="get" ref={formRef} preventScrollReset>
          <input type="hidden" name="period" value={data.query.period} />
          {data.query.period === "custom" && data.query.dateAfter ? <input type="hidden" name="date_after" value={data.query.dateAfter} /> : null}
          {data.query.period === "custom" && data.query.dateBefore ? <input type="hidden" name="date_before" value={data.query.dateBefore} /> : null}
          <Group gap="xs" align="flex-end">
            <NativeSelect
              name="txn_avg_size_year"
              label={t("statistics.year")}
              size="xs"
              defaultValue={String(average.year)}
              data={average.years.map((year) => String(year))}
              onChange={() => submit(formRef.current)}
            />
            <noscript>
              <Button type="submit" size="xs" variant="default">
                {t("statistics.show")}
              </Button>
            </noscript>
          </Group>
        </Form>
      }
    >
      {hasData ? (
        <>
          <ChartBox height={260} hydrated={hydrated}>
            <LineChart
              h={260}
              data={chartData}
              dataKey="month"
              series={average.currencies.map((currency, index) => ({ name: currency, label: currency, color: CHART_COLORS[index % CHART_COLORS.length] }))}
              curveType="monotone"
              connectNulls={false}
              withLegend={average.currencies.length > 1}
              xAxisProps={{ reversed: rtl, minTickGap: 0 }}
              yAxisProps={{ orientation: rtl ? "right" : "left", width: 60 }}
              valueFormatter={(value) => new Intl.NumberFormat(i18n.language === "ar" ? "ar-KW-u-nu-latn" : "en-GB", { maximumFractionDigits: 3 }).format(value)}
            />
          </ChartBox>
          <Table className="chart-table figure-table" striped>
            <caption>{t("statistics.average_caption", { year: average.year })}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("statistics.month")}</Table.Th>
                {average.currencies.map((currency) => (
                  <Table.Th key={currency}>{t("statistics.average_in", { currency })}</Table.Th>
                ))}
                {average.currencies.map((currency) => (
                  <Table.Th key={`count-${currency}`}>{t("statistics.paid_in", { currency })}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {average.months.map((month) => (
                <Table.Tr key={month.label}>
                  <Table.Th scope="row" fw={400}>
                    {month.label}
                  </Table.Th>
                  {average.currencies.map((currency) => (
                    <Table.Td key={currency} dir="ltr" ta="start">
                      {month.texts[currency]}
                    </Table.Td>
                  ))}
                  {average.currencies.map((currency) => (
                    <Table.Td key={`count-${currency}`}>{month.counts[currency]}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      ) : (
        <Empty />
      )}
    </ChartCard>
  );
}

export function GatewayShareCard({ statistics, hydrated }: { statistics: HomeStatistics; hydrated: boolean }) {
  const { t } = useTranslation();
  const gateways = statistics.paidPerGateway;
  return (
    <ChartCard title={t("statistics.paid_per_gateway")}>
      {gateways.length ? (
        <Group align="center" gap="xl" wrap="wrap" justify="center">
          <ChartBox height={180} width={180} hydrated={hydrated}>
            <DonutChart
              size={180}
              thickness={26}
              paddingAngle={2}
              data={gateways.map((gateway, index) => ({ name: gateway.name, value: gateway.value, color: CHART_COLORS[index % CHART_COLORS.length] }))}
              chartLabel={statistics.totalPaid.text}
              tooltipDataSource="segment"
            />
          </ChartBox>
          <Table className="figure-table" style={{ flex: 1, minWidth: 220 }} verticalSpacing={6}>
            <caption className="visually-hidden">{t("statistics.paid_per_gateway")}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("statistics.gateway")}</Table.Th>
                <Table.Th>{t("statistics.paid_count")}</Table.Th>
                <Table.Th>{t("statistics.share")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {gateways.map((gateway, index) => (
                <Table.Tr key={gateway.code}>
                  <Table.Th scope="row" fw={500}>
                    <Group gap={8} wrap="nowrap">
                      <span className="legend-dot" style={{ background: `var(--mantine-color-${CHART_COLORS[index % CHART_COLORS.length].replace(".", "-")})` }} aria-hidden />
                      {gateway.name}
                    </Group>
                  </Table.Th>
                  <Table.Td>{gateway.text}</Table.Td>
                  <Table.Td>{gateway.share}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Group>
      ) : (
        <Empty />
      )}
    </ChartCard>
  );
}

/** Bars drawn in HTML: they need no JavaScript, and a screen reader reads each gateway's rate. */
export function GatewaySuccessCard({ statistics }: { statistics: HomeStatistics }) {
  const { t } = useTranslation();
  const gateways = statistics.successRatePerGateway;
  return (
    <ChartCard title={t("statistics.success_per_gateway")}>
      {gateways.length ? (
        <Stack gap="md" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {gateways.map((gateway) => (
            <li key={gateway.code}>
              <Group gap="sm" wrap="nowrap" align="center">
                {gateway.logo ? <img src={gateway.logo} alt="" className="gateway-logo" /> : <span className="gateway-logo" aria-hidden />}
                <Box style={{ flex: 1, minWidth: 0 }}>
                  <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                    <Text fw={600} size="sm" truncate>
                      {gateway.name}
                    </Text>
                    <Text fw={700} size="sm">
                      {gateway.text}
                    </Text>
                  </Group>
                  <Progress value={gateway.value} color={gateway.value >= 80 ? "teal" : gateway.value >= 50 ? "yellow" : "red"} size="lg" radius="xl" aria-hidden />
                  <Text size="xs" c="dimmed" mt={4}>
                    {gateway.detail}
                  </Text>
                </Box>
              </Group>
            </li>
          ))}
        </Stack>
      ) : (
        <Empty />
      )}
    </ChartCard>
  );
}

/** Bars in HTML (Mantine's BarsList): drawn without JavaScript, read by screen readers, right to left in Arabic. */
export function ProductSalesCard({ statistics }: { statistics: HomeStatistics }) {
  const { t, i18n } = useTranslation();
  const products = statistics.productWiseSales;
  return (
    <ChartCard title={t("statistics.product_sales")}>
      {products.length ? (
        <>
          <BarsList
            data={products.map((product) => ({ name: product.name, value: product.count }))}
            barsLabel={t("statistics.product")}
            valueLabel={t("statistics.paid_count")}
            valueFormatter={(value) => new Intl.NumberFormat(i18n.language === "ar" ? "ar-KW-u-nu-latn" : "en-GB").format(value)}
            barColor="brand.1"
            barTextColor="dark.7"
            barHeight={30}
            styles={{ barLabel: { whiteSpace: "nowrap", overflow: "visible" } }}
          />
          <Table className="figure-table" mt="md" verticalSpacing={6}>
            <caption className="visually-hidden">{t("statistics.product_amounts")}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("statistics.product")}</Table.Th>
                <Table.Th>{t("statistics.amount")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.map((product) => (
                <Table.Tr key={product.plugin}>
                  <Table.Th scope="row" fw={500}>
                    {product.url ? (
                      <Anchor component={Link} to={product.url} size="sm">
                        {product.name}
                      </Anchor>
                    ) : (
                      product.name
                    )}
                  </Table.Th>
                  <Table.Td>
                    <Group gap="md">
                      {product.amounts.map((amount) => (
                        <span key={amount} dir="ltr">
                          {amount}
                        </span>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      ) : (
        <Empty />
      )}
    </ChartCard>
  );
}

export function ChartsGrid({ data, statistics, hydrated }: { data: HomeData; statistics: HomeStatistics; hydrated: boolean }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        {data.average ? <AverageSizeCard data={data} hydrated={hydrated} /> : null}
        <GatewayShareCard statistics={statistics} hydrated={hydrated} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <GatewaySuccessCard statistics={statistics} />
        <ProductSalesCard statistics={statistics} />
      </SimpleGrid>
    </>
  );
}
