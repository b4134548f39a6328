import { errorField, log } from "~/lib/log.server";
import { randomBytes } from "node:crypto";
import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/uploads";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { ColumnsHelp } from "~/components/uploads/columns-help";
import { ExampleFiles } from "~/components/uploads/example-files";
import { RowErrors } from "~/components/uploads/row-errors";
import { formatCount, formatListDateTime } from "~/lib/format";
import { translator } from "~/lib/i18n.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { platformAddresses } from "~/web/addresses.server";
import { ALL_COLUMNS, BULK_MAX_BYTES, REQUIRED_COLUMNS } from "../domain/bulk-columns";
import { listBulks } from "../domain/bulk-queries.server";
import { requireBulkPage } from "../presentation/bulk-access.server";
import { keepErrorReport } from "../domain/error-reports.server";
import { choicesOf, uploadBulkFile, UploadChoicesSchema, UploadTokenSchema } from "../presentation/bulk-upload.server";
import { ScheduleLabel, SendProgress, useRefreshWhile } from "../components/bulk-parts";
import { UploadFailedNotice, UploadForm, type UploadFormErrors } from "../components/upload-form";

const PER_PAGE = 20;
/** Bad cells listed on the page; the error file holds them all. */
const SHOWN_ERRORS = 200;
const EXAMPLE_PATH = "/api/v1/plugins/bulk/upload/example";
const EXAMPLE_KEYS = {
  title: "bulk.examples_title",
  hint: "bulk.examples_hint",
  required: "bulk.example_required",
  all: "bulk.example_all",
};
const COLUMNS_KEYS = { title: "bulk.columns_title", required: "bulk.required", columnHelp: "bulk.column_help" };
const ROW_ERRORS_KEYS = {
  title: "bulk.rows_title",
  summary: "bulk.rows_summary",
  download: "bulk.download_report",
  row: "bulk.report.row",
  column: "bulk.report.column",
  cell: "bulk.report.cell",
  error: "bulk.report.error",
  moreErrors: "bulk.more_errors",
};

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "رفع طلبات الدفع" : "Bulk uploads" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { db, lang, merchantId } = await requireBulkPage(context, request, params);
  const requested = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(requested) && requested > 0 && requested < 100_000 ? requested : 1;
  const list = await listBulks(db, merchantId, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE });
  // The form's one-time token: posted twice (a double click, a refresh), it makes one bulk.
  const uploadToken = randomBytes(18).toString("base64url");
  return {
    lang,
    page,
    pages: Math.max(1, Math.ceil(list.count / PER_PAGE)),
    count: list.count,
    bulks: list.results,
    uploadToken,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { db, lang, merchantId, actor } = await requireBulkPage(context, request, params);
  if (Number(request.headers.get("Content-Length") ?? 0) > BULK_MAX_BYTES + 64 * 1024) {
    return data(
      { file: [translator(lang)("bulk.errors.too_large", { max: BULK_MAX_BYTES / 1024 / 1024 })] },
      { status: 400 },
    );
  }
  const form = await readFormData(request);
  const values = {
    channel: String(form.get("channel") ?? "email"),
    schedule: String(form.get("schedule") ?? "none"),
    language: String(form.get("language") ?? lang),
  };
  const parsed = UploadChoicesSchema.safeParse({
    channel: form.get("channel") || undefined,
    schedule: form.get("schedule") || undefined,
    language: form.get("language") || undefined,
  });
  if (!parsed.success) {
    const errors: UploadFormErrors = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0]) as keyof UploadFormErrors] = [issue.message];
    return data({ values, errors }, { status: 400 });
  }
  try {
    const token = UploadTokenSchema.safeParse(form.get("upload_token"));
    const outcome = await uploadBulkFile(db, {
      merchantId,
      user: actor,
      file: form.get("file"),
      choices: choicesOf(parsed.data, lang),
      lang,
      baseUrl: platformAddresses(request).publicBaseUrl,
      uploadToken: token.success ? token.data : undefined,
    });
    if (outcome.ok)
      return redirect(`/${lang}/bulk/uploads/${outcome.bulkId}`, {
        status: 303,
        headers: { "Set-Cookie": flashCookie({ kind: "success", message: "bulk.upload_done" }) },
      });
    if ("file" in outcome) return data({ values, errors: { file: outcome.file } }, { status: 400 });
    // The error file stays on the server a short while; the page links to it.
    const reportToken = await keepErrorReport(db, { merchantId, fileName: outcome.fileName, content: outcome.report });
    return data(
      {
        values,
        errors: {},
        rows: outcome.rows.slice(0, SHOWN_ERRORS),
        errorCount: outcome.rows.length,
        rowsChecked: outcome.rowsChecked,
        reportUrl: `/${lang}/bulk/uploads/error-report/${reportToken}`,
      },
      { status: 400 },
    );
  } catch (error) {
    log.error({ error: errorField(error) }, "bulk upload failed");
    return data({ values, errors: {}, failed: true }, { status: 500 });
  }
}

export default function BulkUploads() {
  const { t } = useTranslation();
  const { lang, page, pages, count, bulks, uploadToken } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useRefreshWhile(bulks.some((bulk) => bulk.dispatching));
  const values = answer && "values" in answer ? answer.values : { channel: "email", schedule: "none", language: lang };
  const errors: UploadFormErrors = answer ? ("errors" in answer ? answer.errors : { file: answer.file }) : {};
  const rows = answer && "rows" in answer ? answer : null;
  return (
    <Stack maw={1100}>
      <PageHeader title={t("bulk.uploads.title")} description={t("bulk.uploads.description")} />
      {rows ? (
        <RowErrors
          id="bulk-errors"
          rows={rows.rows}
          errorCount={rows.errorCount}
          rowsChecked={rows.rowsChecked}
          report={{ href: rows.reportUrl }}
          keys={ROW_ERRORS_KEYS}
        />
      ) : null}
      {answer && "failed" in answer ? <UploadFailedNotice /> : null}
      <ExampleFiles path={EXAMPLE_PATH} keys={EXAMPLE_KEYS} />
      <UploadForm values={values} errors={errors} lang={lang} uploadToken={uploadToken} />
      <Title order={2} fz="h3" mt="md">
        {t("bulk.uploads.list_title")}
      </Title>
      <DataTable
        rows={bulks}
        rowKey={(bulk) => bulk.id}
        empty={t("bulk.uploads.empty")}
        minWidth={900}
        columns={[
          {
            key: "file",
            header: t("bulk.columns.file"),
            cell: (bulk) => (
              <Anchor component={Link} to={`/${lang}/bulk/uploads/${bulk.id}`}>
                {bulk.file_name}
              </Anchor>
            ),
          },
          { key: "rows", header: t("bulk.columns.rows"), cell: (bulk) => formatCount(bulk.row_count, lang) },
          { key: "created", header: t("bulk.columns.created"), cell: (bulk) => formatCount(bulk.created, lang) },
          { key: "sent", header: t("bulk.columns.sent"), cell: (bulk) => formatCount(bulk.sent, lang) },
          { key: "paid", header: t("bulk.columns.paid"), cell: (bulk) => formatCount(bulk.paid, lang) },
          {
            key: "progress",
            header: t("bulk.columns.progress"),
            cell: (bulk) => (
              <SendProgress
                sent={bulk.sent}
                failed={bulk.failed}
                total={bulk.messages}
                dispatching={bulk.dispatching}
                lang={lang}
              />
            ),
          },
          {
            key: "schedule",
            header: t("bulk.columns.schedule"),
            cell: (bulk) => (
              <ScheduleLabel
                schedule={bulk.schedule}
                nextRunAt={bulk.next_run_at}
                endedAt={bulk.ended_at}
                lang={lang}
              />
            ),
          },
          {
            key: "uploaded",
            header: t("bulk.columns.uploaded"),
            nowrap: true,
            cell: (bulk) => (
              <>
                <Text size="sm">{formatListDateTime(bulk.created_at, lang)}</Text>
                <Text size="xs" c="dimmed">
                  {bulk.created_by_name}
                </Text>
              </>
            ),
          },
        ]}
      />
      <ListPagination page={page} pages={pages} count={t("bulk.uploads.count", { count: formatCount(count, lang) })} />
      <ColumnsHelp columns={ALL_COLUMNS} required={REQUIRED_COLUMNS} keys={COLUMNS_KEYS} />
    </Stack>
  );
}
