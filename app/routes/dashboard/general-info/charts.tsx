import {
  Anchor,
  Box,
  Button,
  Card,
  Group,
  NativeSelect,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSubmit } from "react-router";
import type { HomeData, HomeStatistics } from "./home.server";
import { colorOf, DonutPlot, LinePlot } from "./svg-charts";

/** The charts' colours, the brand's orange first. */
export const CHART_COLORS = ["brand.6", "blue.6", "teal.6", "grape.6", "yellow.6", "cyan.6", "pink.6", "indigo.6"];

function ChartCard({
  title,
  action,
  children,
}: {
  title: string;
  action?: React.ReactNode;
  children: React.ReactNode;
}) {
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
 * A chart's picture (svg-charts.tsx), hidden from screen readers: the table beside it holds its numbers.
 * The SVG is laid out left to right in both languages (its axes are mirrored for Arabic instead).
 */
function ChartBox({ height, width, children }: { height: number; width?: number; children: React.ReactNode }) {
  return (
    <Box h={height} w={width} className="chart-box" aria-hidden dir="ltr">
      {children}
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

export function AverageSizeCard({ data }: { data: HomeData }) {
  const { t, i18n } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const average = data.average!;
  const rtl = i18n.dir() === "rtl";
  const hasData = average.months.some((month) => Object.values(month.values).some((value) => value !== null));
  const format = new Intl.NumberFormat(i18n.language === "ar" ? "ar-KW-u-nu-latn" : "en-GB", {
    maximumFractionDigits: 3,
  });
  return (
    <ChartCard
      title={t("statistics.average_title")}
      action={
        <Form method="get" ref={formRef} preventScrollReset>
          <input type="hidden" name="period" value={data.query.period} />
          {data.query.period === "custom" && data.query.dateAfter ? (
            <input type="hidden" name="date_after" value={data.query.dateAfter} />
          ) : null}
          {data.query.period === "custom" && data.query.dateBefore ? (
            <input type="hidden" name="date_before" value={data.query.dateBefore} />
          ) : null}
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
          <ChartBox height={260}>
            <LinePlot
              height={260}
              rtl={rtl}
              labels={average.months.map((month) => month.label)}
              series={average.currencies.map((currency, index) => ({
                name: currency,
                color: CHART_COLORS[index % CHART_COLORS.length],
                values: average.months.map((month) => month.values[currency]),
                texts: average.months.map((month) => month.texts[currency]),
              }))}
              formatValue={(value) => format.format(value)}
            />
          </ChartBox>
          {average.currencies.length > 1 ? <Legend names={average.currencies} /> : null}
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

export function GatewayShareCard({ statistics }: { statistics: HomeStatistics }) {
  const { t } = useTranslation();
  const gateways = statistics.paidPerGateway;
  return (
    <ChartCard title={t("statistics.paid_per_gateway")}>
      {gateways.length ? (
        <Group align="center" gap="xl" wrap="wrap" justify="center">
          <ChartBox height={180} width={180}>
            <DonutPlot
              size={180}
              thickness={26}
              slices={gateways.map((gateway, index) => ({
                name: gateway.name,
                value: gateway.value,
                text: gateway.text,
                color: CHART_COLORS[index % CHART_COLORS.length],
              }))}
              label={statistics.totalPaid.text}
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
                      <span
                        className="legend-dot"
                        style={{ background: colorOf(CHART_COLORS[index % CHART_COLORS.length]) }}
                        aria-hidden
                      />
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
                {gateway.logo ? (
                  <img src={gateway.logo} alt="" className="gateway-logo" />
                ) : (
                  <span className="gateway-logo" aria-hidden />
                )}
                <Box style={{ flex: 1, minWidth: 0 }}>
                  <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                    <Text fw={600} size="sm" truncate>
                      {gateway.name}
                    </Text>
                    <Text fw={700} size="sm">
                      {gateway.text}
                    </Text>
                  </Group>
                  <Progress
                    value={gateway.value}
                    color={gateway.value >= 80 ? "teal" : gateway.value >= 50 ? "yellow" : "red"}
                    size="lg"
                    radius="xl"
                    aria-hidden
                  />
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

/** Bars in HTML: drawn without JavaScript, read by screen readers as a list, right to left in Arabic. */
function ProductBars({ products }: { products: HomeStatistics["productWiseSales"] }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...products.map((product) => product.count));
  return (
    <div className="bars-list">
      <div className="bars-list-header" aria-hidden>
        <span>{t("statistics.product")}</span>
        <span>{t("statistics.paid_count")}</span>
      </div>
      <ul>
        {products.map((product) => (
          <li key={product.plugin}>
            <span className="bars-list-bar">
              <span className="bars-list-fill" style={{ width: `${(product.count / most) * 100}%` }} />
              <span className="bars-list-name">{product.name}</span>
            </span>
            <span className="bars-list-value">{product.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The lines' names and colours, when a chart has more than one. */
function Legend({ names }: { names: string[] }) {
  return (
    <Group gap="md" justify="center" mt="xs" aria-hidden>
      {names.map((name, index) => (
        <Group key={name} gap={6} wrap="nowrap">
          <span className="legend-dot" style={{ background: colorOf(CHART_COLORS[index % CHART_COLORS.length]) }} />
          <Text size="sm">{name}</Text>
        </Group>
      ))}
    </Group>
  );
}

export function ProductSalesCard({ statistics }: { statistics: HomeStatistics }) {
  const { t } = useTranslation();
  const products = statistics.productWiseSales;
  return (
    <ChartCard title={t("statistics.product_sales")}>
      {products.length ? (
        <>
          <ProductBars products={products} />
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

export function ChartsGrid({ data, statistics }: { data: HomeData; statistics: HomeStatistics }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        {data.average ? <AverageSizeCard data={data} /> : null}
        <GatewayShareCard statistics={statistics} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <GatewaySuccessCard statistics={statistics} />
        <ProductSalesCard statistics={statistics} />
      </SimpleGrid>
    </>
  );
}
