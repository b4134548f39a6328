import { Anchor, Group, Stack, Text } from "@mantine/core";
import { Callout } from "~/components/callout";
import { useTranslation } from "react-i18next";
import { Link, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/list";
import { PageHeader } from "~/components/page-header";
import { ExportPopover } from "~/components/transactions/export-popover";
import { ConfirmDialog, DoneDialog, OperationDialog } from "~/components/transactions/dialog-slots";
import type { DialogResult } from "~/components/transactions/dialogs";
import { listAction, loadList, type ListNotice } from "./list.server";
import { Pagination, PerPage } from "./list/paging";
import { FilterPanel, SearchBox } from "./list/search-and-filters";
import { StatisticsStrip } from "./list/statistics-strip";
import { StatusTabs } from "./list/status-tabs";
import { TransactionsTable } from "./list/transactions-table";

export const loader = (args: Route.LoaderArgs) => loadList(args);
export const action = (args: Route.ActionArgs) => listAction(args);

type ActionData = ListNotice | DialogResult | undefined;

export default function TransactionList() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData;
  const location = useLocation();
  const notice = result && "color" in result ? result : null;
  const orderNoOf = new Map(data.rows.map((row) => [row.id, row.orderNo]));
  return (
    <Stack gap="md">
      <PageHeader
        title={t(data.titleKey)}
        description={data.place.sectionKey !== "all" ? t(`sections.${data.place.sectionKey}`) : undefined}
      >
        <Group gap="sm">
          {data.exportConfig ? (
            <ExportPopover
              section={data.place.sectionKey}
              query={location.search}
              config={data.exportConfig}
              lang={location.pathname.split("/")[1] === "ar" ? "ar" : "en"}
            />
          ) : null}
          {data.canEditHeaders && data.place.sectionPath ? (
            <Anchor component={Link} to={`/${location.pathname.split("/")[1]}/${data.place.sectionPath}/table-headers`}>
              {t("transactions.table_headers")}
            </Anchor>
          ) : null}
        </Group>
      </PageHeader>
      {data.statistics ? <StatisticsStrip statistics={data.statistics} /> : null}
      {notice ? (
        <Callout color={notice.color} role={notice.color === "red" ? "alert" : "status"}>
          {notice.message}
          {notice.results && notice.color === "orange" ? (
            <ul>
              {notice.results
                .filter((entry) => !entry.ok)
                .map((entry) => (
                  <li key={entry.id}>
                    {orderNoOf.has(entry.id)
                      ? t("transactions.partial_row", { orderNo: orderNoOf.get(entry.id), message: entry.message })
                      : entry.message}
                  </li>
                ))}
            </ul>
          ) : null}
        </Callout>
      ) : null}
      <StatusTabs tabs={data.tabs} basePath={data.place.basePath} />
      {data.canSearch ? (
        <Stack gap="xs">
          <SearchBox raw={data.raw} />
          <FilterPanel data={data} />
        </Stack>
      ) : null}
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed" role="status">
          {data.pagination.countText}
        </Text>
        <PerPage data={data} />
      </Group>
      <TransactionsTable data={data} />
      <Pagination data={data} />
      {data.dialog ? <OperationDialog dialog={data.dialog} result={result} /> : null}
      {data.done ? <DoneDialog done={data.done} /> : null}
      {data.confirm && !notice ? <ConfirmDialog confirm={data.confirm} /> : null}
    </Stack>
  );
}
