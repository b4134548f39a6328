import { Anchor, Badge, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useRevalidator } from "react-router";
import type { Route } from "./+types/generated-reports";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { NoticeStack } from "~/components/shell/notice-stack";
import { ALL_SECTIONS, listReports } from "~/domain/reporting/exports.server";
import { formatDateTime } from "~/lib/format";
import { takeReportNotices } from "~/presentation/notifications.server";
import { describeReportFilters } from "~/presentation/report-files.server";
import { reportFilterDescriber } from "~/sections/registry.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { isLanguage, PAGE_NAMESPACES, type Language } from "~/lib/i18n";
import { usePageTexts } from "~/lib/page-texts";
import { pageTexts } from "~/lib/page-texts.server";
import { getDbFrom } from "~/web/request-context.server";

const PAGE_SIZE = 20;
const REFRESH_MS = 3000;
const stateColors = { queued: "gray", running: "blue", done: "green", failed: "red" } as const;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "التقارير المُنشأة" : "Generated reports" }];
}

/** Each report's filters in the reader's words: a section's own reports (a bookings export) by the section, the others as transaction lists. */
async function describeFiltersOf(
  db: ReturnType<typeof getDbFrom>,
  merchantId: number,
  rows: readonly { section: string; query: string }[],
  lang: Language,
) {
  const own = rows.map((row) => reportFilterDescriber(row.section));
  const described = await describeReportFilters(
    db,
    merchantId,
    rows.map((row, index) => (own[index] ? "" : row.query)),
    lang,
  );
  return Promise.all(rows.map((row, index) => own[index]?.(db, merchantId, row.query, lang) ?? described[index]));
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "view_export_settings");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get("page")) || 1));
  const highlighted = Number(url.searchParams.get("id")) || null;
  const db = getDbFrom(context);
  const { rows, count } = await listReports(db, auth.user.merchantId, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const [filters, notices] = await Promise.all([
    describeFiltersOf(db, auth.user.merchantId, rows, lang),
    // The page shows the reports themselves: their notices are shown here, once, and not on the next
    // page; only beside their report shown finished (one that finished since its row was read waits).
    takeReportNotices(
      db,
      { merchantId: auth.user.merchantId, userId: auth.user.id, sessionId: auth.sessionId },
      lang,
      rows,
    ),
  ]);
  return {
    lang,
    texts: pageTexts(lang, PAGE_NAMESPACES.reports),
    notices,
    page,
    pages: Math.max(1, Math.ceil(count / PAGE_SIZE)),
    highlighted,
    running: rows.some((row) => row.state === "queued" || row.state === "running"),
    reports: rows.map((row, index) => ({
      id: row.id,
      filters: filters[index],
      fileName: row.file_name,
      format: row.file_format,
      listKey: row.section === ALL_SECTIONS ? "shell.all_transactions" : `sections.${row.section}`,
      requestedBy: row.user_name,
      requestedAt: formatDateTime(row.created_at, lang),
      state: row.state,
      rowsDone: row.rows_done,
      rowsTotal: row.rows_total,
      size: row.file_size,
      error: row.error,
    })),
  };
}

type Report = Awaited<ReturnType<typeof loader>>["reports"][number];

export default function GeneratedReports() {
  const { lang, reports, page, pages, highlighted, running, notices, texts } = useLoaderData<typeof loader>();
  usePageTexts(lang, texts, "reports.title");
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  // Each refresh brings only notices not shown yet: those already showing stay until they close.
  const [shownNotices, setShownNotices] = useState(notices);
  useEffect(() => {
    if (notices.length > 0)
      setShownNotices((current) => [
        ...current,
        ...notices.filter((notice) => !current.some((shown) => shown.id === notice.id)),
      ]);
  }, [notices]);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && !document.hidden) void revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  useEffect(() => {
    if (highlighted) document.getElementById(`report-${highlighted}`)?.scrollIntoView({ block: "nearest" });
  }, [highlighted]);

  const here = `?${new URLSearchParams({ ...(highlighted ? { id: String(highlighted) } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;
  return (
    <Stack>
      <PageHeader title={t("reports.title")} description={t("reports.subtitle")}>
        {running ? (
          <Anchor href={here} size="sm">
            {t("reports.refresh")}
          </Anchor>
        ) : null}
      </PageHeader>
      {running ? (
        <Text size="sm" c="dimmed" role="status">
          {t("reports.running_note")}
        </Text>
      ) : null}
      <ReportTable reports={reports} lang={lang} highlighted={highlighted} />
      <ListPagination page={page} pages={pages} />
      <NoticeStack items={shownNotices} showLinks={false} />
    </Stack>
  );
}

/** The reports with their state and progress; the one just asked for is marked and scrolled to. */
function ReportTable({ reports, lang, highlighted }: { reports: Report[]; lang: string; highlighted: number | null }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => value.toLocaleString(i18n.language === "ar" ? "ar-KW-u-nu-latn" : "en-US");
  const size = (bytes: number) =>
    bytes >= 1024 * 1024
      ? t("reports.size_mb", { value: number(Math.round((bytes / 1024 / 1024) * 10) / 10) })
      : t("reports.size_kb", { value: number(Math.max(0.1, Math.round((bytes / 1024) * 10) / 10)) });
  return (
    <DataTable
      rows={reports}
      rowKey={(report) => report.id}
      empty={t("reports.empty")}
      minWidth={860}
      rowProps={(report) => ({
        id: `report-${report.id}`,
        "aria-current": report.id === highlighted ? "true" : undefined,
        style: report.id === highlighted ? { background: "var(--mantine-color-yellow-light)" } : undefined,
      })}
      columns={[
        {
          key: "file",
          header: t("reports.file"),
          cell: (report) => (
            <Stack gap={2}>
              <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                <bdi dir="ltr">{report.fileName}</bdi>
              </Text>
              <Text size="xs" c="dimmed">
                {t(`reports.formats.${report.format}`)}
              </Text>
            </Stack>
          ),
        },
        {
          key: "list",
          header: t("reports.list"),
          cell: (report) => (
            <Text size="sm" style={{ overflowWrap: "normal" }}>
              {t(report.listKey)}
            </Text>
          ),
        },
        {
          key: "filters",
          header: t("reports.filters"),
          cell: (report) =>
            report.filters.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t("reports.no_filters")}
              </Text>
            ) : (
              <Stack gap={2} style={{ overflowWrap: "normal" }}>
                {report.filters.map((filter) => (
                  <Text key={filter.label} size="sm">
                    <Text span size="sm" c="dimmed">
                      {t("reports.filter", { label: filter.label })}
                    </Text>{" "}
                    {filter.value}
                  </Text>
                ))}
              </Stack>
            ),
        },
        { key: "by", header: t("reports.requested_by"), cell: (report) => report.requestedBy, nowrap: true },
        { key: "at", header: t("reports.requested_at"), cell: (report) => report.requestedAt, nowrap: true },
        {
          key: "state",
          header: t("reports.state"),
          cell: (report) => (
            <Stack gap={2}>
              <Badge
                variant="light"
                color={stateColors[report.state]}
                styles={{ root: { maxWidth: "none", overflow: "visible" }, label: { overflow: "visible" } }}
              >
                {t(`reports.states.${report.state}`)}
              </Badge>
              {report.state === "running" && report.rowsTotal !== null ? (
                <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                  {t("reports.progress", { done: number(report.rowsDone), total: number(report.rowsTotal) })}
                </Text>
              ) : null}
              {report.state === "done" ? (
                <Text size="xs" c="dimmed">
                  {t("reports.rows", { count: number(report.rowsDone) })}
                </Text>
              ) : null}
              {report.state === "failed" && report.error ? (
                <Text size="xs" c="red" style={{ overflowWrap: "anywhere" }}>
                  {report.error}
                </Text>
              ) : null}
            </Stack>
          ),
        },
        {
          key: "size",
          header: t("reports.size"),
          cell: (report) => (report.size === null ? "—" : size(report.size)),
          nowrap: true,
        },
        {
          key: "download",
          nowrap: true,
          header: <span className="visually-hidden">{t("reports.download")}</span>,
          cell: (report) =>
            report.state === "done" ? (
              <Anchor href={`/${lang}/generated-reports/${report.id}/download`} download={report.fileName ?? true}>
                {t("reports.download")}
              </Anchor>
            ) : null,
        },
      ]}
    />
  );
}
