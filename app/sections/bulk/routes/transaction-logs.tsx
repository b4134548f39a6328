import { Anchor, Button, Group, NativeSelect, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/transaction-logs";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { formatCount, formatListDateTime } from "~/lib/format";
import { notFound } from "~/web/guards.server";
import { LOG_RESULTS } from "../domain/bulk-columns";
import { listTransactionLogs, loadDispatchLog } from "../domain/bulk-queries.server";
import { countResendable } from "../domain/bulk-runs.server";
import { idOf, requireBulkPage } from "../presentation/bulk-access.server";
import { wordLogError } from "../presentation/bulk-upload.server";
import { BulkTrail, RefreshLink, ResultBadge, SendProgress, useRefreshWhile } from "../components/bulk-parts";

const PER_PAGE = 100;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "سجل المعاملات" : "Transaction logs" }];
}

/** What one run sent, a row per message: the file's row, recipient, channel, result, error and the request. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { db, lang, merchantId } = await requireBulkPage(context, request, params);
  const bulkId = idOf(params.bulkId);
  const runId = idOf(params.dispatchLogId);
  const bulk = bulkId
    ? await db
        .selectFrom("bulk_uploads")
        .select(["id", "file_name"])
        .where("id", "=", bulkId)
        .where("merchant_id", "=", merchantId)
        .executeTakeFirst()
    : undefined;
  const run = bulk && runId ? await loadDispatchLog(db, merchantId, bulk.id, runId) : undefined;
  if (!bulk || !run) notFound();
  const search = new URL(request.url).searchParams;
  const result = (LOG_RESULTS as readonly string[]).includes(search.get("result") ?? "")
    ? (search.get("result") as (typeof LOG_RESULTS)[number])
    : undefined;
  const requested = Number(search.get("page") ?? "1");
  const page = Number.isInteger(requested) && requested > 0 && requested < 100_000 ? requested : 1;
  const [list, resendable] = await Promise.all([
    listTransactionLogs(db, merchantId, run.id, { result, limit: PER_PAGE, offset: (page - 1) * PER_PAGE }),
    countResendable(db, merchantId, bulk.id),
  ]);
  return {
    lang,
    bulk,
    run,
    result: result ?? "",
    page,
    pages: Math.max(1, Math.ceil(list.count / PER_PAGE)),
    count: list.count,
    resendable,
    logs: list.results.map((log) => ({ ...log, error: wordLogError(log.error, lang) })),
  };
}

export default function TransactionLogs() {
  const { t } = useTranslation();
  const { lang, bulk, run, result, page, pages, count, resendable, logs } = useLoaderData<typeof loader>();
  const running = run.status !== "finished";
  useRefreshWhile(running);
  return (
    <Stack maw={1100}>
      <BulkTrail lang={lang} bulk={bulk} run={run} />
      <PageHeader
        title={t("bulk.transaction_logs.title", { run: `${t(`bulk.run_kinds.${run.kind}`)} #${run.id}` })}
        description={t("bulk.transaction_logs.description", { file: bulk.file_name })}
      >
        <Form method="post" action={`/${lang}/bulk/uploads/${bulk.id}`}>
          <input type="hidden" name="intent" value="resend" />
          <Button type="submit" color="orange" disabled={resendable === 0}>
            {t("bulk.resend_failed", { count: resendable })}
          </Button>
        </Form>
      </PageHeader>
      <Group justify="space-between" align="flex-end">
        <SendProgress sent={run.sent} failed={run.failed} total={run.total} dispatching={running} lang={lang} />
        {running ? <RefreshLink /> : null}
        <Form method="get">
          <Group align="flex-end" gap="xs">
            <NativeSelect
              name="result"
              label={t("bulk.transaction_logs.filter")}
              defaultValue={result}
              data={[
                { value: "", label: t("bulk.transaction_logs.all") },
                ...LOG_RESULTS.map((value) => ({ value, label: t(`bulk.results.${value}`) })),
              ]}
            />
            <Button type="submit" variant="light">
              {t("bulk.transaction_logs.apply")}
            </Button>
          </Group>
        </Form>
      </Group>
      <DataTable
        rows={logs}
        rowKey={(log) => log.id}
        empty={t("bulk.transaction_logs.empty")}
        minWidth={900}
        columns={[
          { key: "row", header: t("bulk.transaction_logs.columns.row"), cell: (log) => log.row_number },
          {
            key: "recipient",
            header: t("bulk.transaction_logs.columns.recipient"),
            cell: (log) => <span dir="ltr">{log.recipient}</span>,
          },
          {
            key: "channel",
            header: t("bulk.transaction_logs.columns.channel"),
            cell: (log) => t(`bulk.channel_names.${log.channel}`),
          },
          {
            key: "result",
            header: t("bulk.transaction_logs.columns.result"),
            cell: (log) => <ResultBadge result={log.result} />,
          },
          {
            key: "error",
            header: t("bulk.transaction_logs.columns.error"),
            cell: (log) =>
              log.error ? (
                <Text size="sm" c="red.8">
                  {log.error}
                </Text>
              ) : (
                "—"
              ),
          },
          {
            key: "transaction",
            header: t("bulk.transaction_logs.columns.transaction"),
            cell: (log) => (
              <Anchor component={Link} to={`/${lang}/bulk/transactions/${log.transaction_id}`}>
                #{log.order_no}
              </Anchor>
            ),
          },
          {
            key: "sent_at",
            header: t("bulk.transaction_logs.columns.sent_at"),
            nowrap: true,
            cell: (log) => (log.sent_at ? formatListDateTime(log.sent_at, lang) : "—"),
          },
        ]}
      />
      <ListPagination
        page={page}
        pages={pages}
        count={t("bulk.transaction_logs.count", { count: formatCount(count, lang) })}
      />
    </Stack>
  );
}
