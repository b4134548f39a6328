import { Anchor, Badge, Card, Group, Pagination, Stack, Table, Text } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useRevalidator, useSearchParams } from "react-router";
import type { Route } from "./+types/generated-reports";
import { PageHeader } from "~/components/page-header";
import { ALL_SECTIONS, listReports } from "~/domain/reporting/exports.server";
import { formatDateTime } from "~/lib/format";
import { requirePermission, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";

const PAGE_SIZE = 20;
const REFRESH_MS = 3000;
const stateColors = { queued: "gray", running: "blue", done: "green", failed: "red" } as const;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "التقارير المُنشأة" : "Generated reports" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "view_export_settings");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get("page")) || 1));
  const highlighted = Number(url.searchParams.get("id")) || null;
  const { rows, count } = await listReports(getDbFrom(context), auth.user.merchantId, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return {
    lang,
    page,
    pages: Math.max(1, Math.ceil(count / PAGE_SIZE)),
    highlighted,
    running: rows.some((row) => row.state === "queued" || row.state === "running"),
    reports: rows.map((row) => ({
      id: row.id,
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
  const { t } = useTranslation();
  const { lang, reports, page, pages, highlighted, running } = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  const revalidator = useRevalidator();

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
      <Card withBorder padding={0}>
        {reports.length === 0 ? (
          <Text p="lg" c="dimmed">
            {t("reports.empty")}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("reports.file")}</Table.Th>
                  <Table.Th>{t("reports.format")}</Table.Th>
                  <Table.Th>{t("reports.list")}</Table.Th>
                  <Table.Th>{t("reports.requested_by")}</Table.Th>
                  <Table.Th>{t("reports.requested_at")}</Table.Th>
                  <Table.Th>{t("reports.state")}</Table.Th>
                  <Table.Th>{t("reports.size")}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {reports.map((report) => (
                  <ReportRow key={report.id} report={report} lang={lang} highlighted={report.id === highlighted} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {pages > 1 ? (
        <Group justify="center">
          <Pagination
            total={pages}
            value={page}
            onChange={(value) => setSearchParams({ page: String(value) })}
            getItemProps={(value) => ({ component: "a", href: `?page=${value}` })}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

function ReportRow({ report, lang, highlighted }: { report: Report; lang: string; highlighted: boolean }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => value.toLocaleString(i18n.language === "ar" ? "ar-KW-u-nu-latn" : "en-US");
  const size = (bytes: number) =>
    bytes >= 1024 * 1024
      ? t("reports.size_mb", { value: number(Math.round((bytes / 1024 / 1024) * 10) / 10) })
      : t("reports.size_kb", { value: number(Math.max(0.1, Math.round((bytes / 1024) * 10) / 10)) });
  return (
    <Table.Tr
      id={`report-${report.id}`}
      aria-current={highlighted ? "true" : undefined}
      style={highlighted ? { background: "var(--mantine-color-yellow-light)" } : undefined}
    >
      <Table.Td style={{ overflowWrap: "anywhere" }} dir="ltr">
        {report.fileName}
      </Table.Td>
      <Table.Td>{t(`reports.formats.${report.format}`)}</Table.Td>
      <Table.Td>{t(report.listKey)}</Table.Td>
      <Table.Td>{report.requestedBy}</Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>{report.requestedAt}</Table.Td>
      <Table.Td>
        <Stack gap={2}>
          <Badge variant="light" color={stateColors[report.state]}>
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
      </Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>{report.size === null ? "—" : size(report.size)}</Table.Td>
      <Table.Td>
        {report.state === "done" ? (
          <Anchor href={`/${lang}/generated-reports/${report.id}/download`} download={report.fileName ?? true}>
            {t("reports.download")}
          </Anchor>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
