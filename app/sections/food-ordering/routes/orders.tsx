import { Anchor, Badge, Button, Card, Group, NativeSelect, SimpleGrid, Text, TextInput } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData, useRevalidator } from "react-router";
import type { Route } from "./+types/orders";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { formatListDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { DELIVERY_TYPES, ORDER_PAGE_SIZES, ORDER_STATUSES } from "../domain/order-filters";
import { listOrderBranches, listOrders, parseOrderQuery } from "../domain/order-list.server";

const DEFAULT_REFRESH_SECONDS = 10;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الطلبات" : "Orders" }];
}

/** How often the list reloads itself: `refresh` seconds (5 to 600), 0 to stop; 10 by default. */
function refreshSecondsOf(value: string | null) {
  if (value === null || !/^\d{1,3}$/.test(value)) return DEFAULT_REFRESH_SECONDS;
  const seconds = Number(value);
  return seconds === 0 ? 0 : Math.min(600, Math.max(5, seconds));
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "food_ordering", "orders");
  requirePermission(auth, "view_order");
  const db = getDbFrom(context);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const search = new URL(request.url).searchParams;
  const query = parseOrderQuery(search);
  const [list, branches] = await Promise.all([
    listOrders(db, {
      merchantId: auth.user.merchantId,
      filters: query.filters,
      page: query.page,
      pageSize: query.pageSize,
    }),
    listOrderBranches(db, auth.user.merchantId),
  ]);
  return {
    lang,
    raw: query.raw,
    errors: query.errors,
    page: query.page,
    pages: Math.max(1, Math.ceil(list.count / query.pageSize)),
    count: list.count,
    refresh: refreshSecondsOf(search.get("refresh")),
    branches: branches.map((branch) => ({
      value: String(branch.id),
      label: lang === "ar" ? branch.name_ar : branch.name_en,
    })),
    rows: list.rows.map((row) => ({
      id: row.id,
      orderNo: row.order_no,
      status: row.status,
      deliveryType: row.delivery_type,
      branch: lang === "ar" ? row.branch_ar : row.branch_en,
      customer: row.customer_name,
      phone: row.customer_phone,
      total: formatAmount(row.total, row.currency_code, lang),
      created: formatListDateTime(row.created_at, lang),
      scheduled: row.scheduled_for ? formatListDateTime(row.scheduled_for, lang) : null,
      seen: row.seen,
    })),
  };
}

type Row = Awaited<ReturnType<typeof loader>>["rows"][number];

export default function FoodOrders() {
  const { t } = useTranslation();
  const { lang, raw, errors, rows, page, pages, count, refresh, branches } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!refresh) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, refresh * 1000);
    return () => window.clearInterval(timer);
  }, [refresh, revalidator]);
  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  return (
    <>
      {/* Without JavaScript the page reloads itself. */}
      {refresh ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(refresh)} />
        </noscript>
      ) : null}
      <PageHeader
        title={t("food_orders.title")}
        description={refresh ? t("food_orders.refreshing", { seconds: refresh }) : t("food_orders.refresh_stopped")}
      />
      <Card withBorder padding="md" mb="md">
        <Form method="get" role="search" aria-label={t("food_orders.filters")}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <TextInput name="q" label={t("food_orders.search")} defaultValue={raw.q ?? ""} maxLength={100} />
            <NativeSelect
              name="status"
              label={t("food_orders.status")}
              defaultValue={raw.status ?? ""}
              error={error("status")}
              data={[
                { value: "", label: t("food_orders.all") },
                ...ORDER_STATUSES.map((status) => ({ value: status, label: t(`food_orders.statuses.${status}`) })),
              ]}
            />
            <NativeSelect
              name="delivery_type"
              label={t("food_orders.delivery_type")}
              defaultValue={raw.delivery_type ?? ""}
              error={error("delivery_type")}
              data={[
                { value: "", label: t("food_orders.all") },
                ...DELIVERY_TYPES.map((type) => ({ value: type, label: t(`food_orders.delivery_types.${type}`) })),
              ]}
            />
            <NativeSelect
              name="branch"
              label={t("food_orders.branch")}
              defaultValue={raw.branch ?? ""}
              error={error("branch")}
              data={[{ value: "", label: t("food_orders.all") }, ...branches]}
            />
            <TextInput
              type="date"
              name="created_after"
              label={t("food_orders.created_after")}
              defaultValue={raw.created_after ?? ""}
              error={error("created_after")}
            />
            <TextInput
              type="date"
              name="created_before"
              label={t("food_orders.created_before")}
              defaultValue={raw.created_before ?? ""}
              error={error("created_before")}
            />
            <NativeSelect
              name="page_size"
              label={t("food_orders.page_size")}
              defaultValue={raw.page_size ?? "10"}
              data={ORDER_PAGE_SIZES.map((size) => String(size))}
            />
            <NativeSelect
              name="refresh"
              label={t("food_orders.refresh")}
              defaultValue={String(refresh)}
              data={[5, 10, 30, 60, 0].map((seconds) => ({
                value: String(seconds),
                label: seconds ? t("food_orders.every_seconds", { seconds }) : t("food_orders.refresh_off"),
              }))}
            />
          </SimpleGrid>
          <Group mt="sm">
            <Button type="submit">{t("food_orders.apply")}</Button>
            <Anchor component={Link} to={`/${lang}/food-ordering/orders`}>
              {t("food_orders.clear")}
            </Anchor>
          </Group>
        </Form>
      </Card>
      <DataTable<Row>
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("food_orders.empty")}
        minWidth={900}
        rowProps={(row) =>
          row.seen
            ? {}
            : { "data-new": "true", style: { background: "var(--mantine-color-yellow-light)", fontWeight: 600 } }
        }
        columns={[
          {
            key: "id",
            header: t("food_orders.order"),
            nowrap: true,
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/food-ordering/orders/${row.id}`}>
                #{row.orderNo}
              </Anchor>
            ),
          },
          {
            key: "status",
            header: t("food_orders.status"),
            cell: (row) => (
              <Group gap={4}>
                <Badge variant="light">{t(`food_orders.statuses.${row.status}`)}</Badge>
                {row.seen ? null : <Badge color="yellow">{t("food_orders.new_badge")}</Badge>}
              </Group>
            ),
          },
          {
            key: "type",
            header: t("food_orders.delivery_type"),
            cell: (row) => t(`food_orders.delivery_types.${row.deliveryType}`),
          },
          { key: "branch", header: t("food_orders.branch"), cell: (row) => row.branch },
          {
            key: "customer",
            header: t("food_orders.customer"),
            cell: (row) => (
              <>
                <Text size="sm">{row.customer}</Text>
                <Text size="xs" c="dimmed" dir="ltr">
                  {row.phone}
                </Text>
              </>
            ),
          },
          { key: "total", header: t("food_orders.total"), nowrap: true, cell: (row) => row.total },
          { key: "created", header: t("food_orders.created"), nowrap: true, cell: (row) => row.created },
          {
            key: "scheduled",
            header: t("food_orders.scheduled_for"),
            nowrap: true,
            cell: (row) => row.scheduled ?? "—",
          },
        ]}
      />
      <ListPagination page={page} pages={pages} count={t("food_orders.count", { count })} />
    </>
  );
}
