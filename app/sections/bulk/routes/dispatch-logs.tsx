import { Anchor, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/dispatch-logs";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { formatCount, formatListDateTime } from "~/lib/format";
import { notFound } from "~/web/guards.server";
import { listDispatchLogs } from "../domain/bulk-queries.server";
import { idOf, requireBulkPage } from "../presentation/bulk-access.server";
import { BulkTrail, RefreshLink, RunStatusBadge, SendProgress, useRefreshWhile } from "../components/bulk-parts";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "سجلات الإرسال" : "Dispatch logs" }];
}

/** Each sending run of a bulk: the upload's, each recurring run's and each resend of the failed messages. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { db, lang, merchantId } = await requireBulkPage(context, request, params);
  const bulkId = idOf(params.bulkId);
  const bulk = bulkId
    ? await db
        .selectFrom("bulk_uploads")
        .select(["id", "file_name"])
        .where("id", "=", bulkId)
        .where("merchant_id", "=", merchantId)
        .executeTakeFirst()
    : undefined;
  if (!bulk) notFound();
  return { lang, bulk, runs: await listDispatchLogs(db, merchantId, bulk.id) };
}

export default function DispatchLogs() {
  const { t } = useTranslation();
  const { lang, bulk, runs } = useLoaderData<typeof loader>();
  const running = runs.some((run) => run.status !== "finished");
  useRefreshWhile(running);
  return (
    <Stack maw={1100}>
      <BulkTrail lang={lang} bulk={bulk} />
      <PageHeader
        title={t("bulk.dispatch_logs.title")}
        description={t("bulk.dispatch_logs.description", { file: bulk.file_name })}
      >
        {running ? <RefreshLink /> : null}
      </PageHeader>
      <DataTable
        rows={runs}
        rowKey={(run) => run.id}
        empty={t("bulk.dispatch_logs.empty")}
        minWidth={900}
        columns={[
          {
            key: "run",
            header: t("bulk.dispatch_logs.columns.run"),
            cell: (run) => (
              <Anchor component={Link} to={`/${lang}/bulk/uploads/${bulk.id}/dispatch-logs/${run.id}/transaction-logs`}>
                {t(`bulk.run_kinds.${run.kind}`)} #{run.id}
              </Anchor>
            ),
          },
          {
            key: "status",
            header: t("bulk.dispatch_logs.columns.status"),
            cell: (run) => <RunStatusBadge status={run.status} />,
          },
          {
            key: "requests",
            header: t("bulk.dispatch_logs.columns.requests"),
            cell: (run) => formatCount(run.requests_created, lang),
          },
          { key: "total", header: t("bulk.dispatch_logs.columns.total"), cell: (run) => formatCount(run.total, lang) },
          { key: "sent", header: t("bulk.dispatch_logs.columns.sent"), cell: (run) => formatCount(run.sent, lang) },
          {
            key: "failed",
            header: t("bulk.dispatch_logs.columns.failed"),
            cell: (run) => formatCount(run.failed, lang),
          },
          {
            key: "progress",
            header: t("bulk.columns.progress"),
            cell: (run) => (
              <SendProgress
                sent={run.sent}
                failed={run.failed}
                total={run.total}
                dispatching={run.status !== "finished"}
                lang={lang}
              />
            ),
          },
          {
            key: "started",
            header: t("bulk.dispatch_logs.columns.started"),
            nowrap: true,
            cell: (run) => (
              <>
                <Text size="sm">{formatListDateTime(run.started_at ?? run.created_at, lang)}</Text>
                <Text size="xs" c="dimmed">
                  {run.created_by_name ?? t("bulk.dispatch_logs.by_schedule")}
                </Text>
              </>
            ),
          },
          {
            key: "finished",
            header: t("bulk.dispatch_logs.columns.finished"),
            nowrap: true,
            cell: (run) => (run.finished_at ? formatListDateTime(run.finished_at, lang) : "—"),
          },
        ]}
      />
    </Stack>
  );
}
