import { Alert, Card, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/bulk-create";
import { PageHeader } from "~/components/page-header";
import { ColumnsHelp } from "~/components/uploads/columns-help";
import { ExampleFiles } from "~/components/uploads/example-files";
import { csvReportLink, RowErrors } from "~/components/uploads/row-errors";
import { SpreadsheetFileField, UploadButton } from "~/components/uploads/spreadsheet-form";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { ALL_COLUMNS, BULK_MAX_BYTES, REQUIRED_COLUMNS } from "../domain/bulk-columns";
import { uploadMenuItems } from "../presentation/bulk-create.server";

/** Row errors listed on the page; the error report holds them all. */
const SHOWN_ERRORS = 200;
const EXAMPLE_PATH = "/api/v1/plugins/food_ordering/upload/product/example";
const EXAMPLE_KEYS = {
  title: "food_bulk.examples_title",
  hint: "food_bulk.examples_hint",
  required: "food_bulk.example_required",
  all: "food_bulk.example_all",
};
const COLUMNS_KEYS = {
  title: "food_bulk.columns_title",
  required: "food_bulk.required",
  columnHelp: "food_bulk.column_help",
};
const UPLOAD_KEYS = { upload: "food_bulk.upload", uploading: "food_bulk.uploading" };
const ROW_ERRORS_KEYS = {
  title: "food_bulk.rows_title",
  summary: "food_bulk.rows_summary",
  download: "food_bulk.download_report",
  row: "food_bulk.row",
  column: "food_bulk.column",
  error: "food_bulk.error",
  moreErrors: "food_bulk.more_errors",
};

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إضافة المنتجات دفعة واحدة" : "Product bulk create" }];
}

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "food_ordering", "product_bulk_create");
  requirePermission(auth, "change_order");
  return auth;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  await guard({ context, request });
  const url = new URL(request.url);
  const count = (name: string) =>
    /^\d{1,6}$/.test(url.searchParams.get(name) ?? "") ? Number(url.searchParams.get(name)) : null;
  return { created: count("created"), categories: count("categories") };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  if (Number(request.headers.get("Content-Length") ?? 0) > BULK_MAX_BYTES + 64 * 1024) {
    return data(
      { file: [translator(lang)("food_bulk.errors.too_large", { max: BULK_MAX_BYTES / 1024 / 1024 })] },
      { status: 400 },
    );
  }
  const form = await readFormData(request);
  const outcome = await uploadMenuItems(getDbFrom(context), auth.user.merchantId, form.get("file"), lang);
  if (outcome.ok)
    return redirect(
      `/${lang}/food-ordering/bulk-create?created=${outcome.created}&categories=${outcome.categoriesCreated}`,
      303,
    );
  if ("file" in outcome) return data({ file: outcome.file }, { status: 400 });
  return data(
    {
      rows: outcome.rows.slice(0, SHOWN_ERRORS),
      errorCount: outcome.rows.length,
      rowsChecked: outcome.rowsChecked,
      report: outcome.report,
    },
    { status: 400 },
  );
}

export default function BulkCreate() {
  const { t } = useTranslation();
  const { created, categories } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const fileError = answer && "file" in answer ? answer.file?.join(" ") : undefined;
  const rows = answer && "rows" in answer ? answer : null;
  return (
    <Stack maw={900}>
      <PageHeader title={t("food_bulk.title")} description={t("food_bulk.description")} />
      {created !== null && !answer ? (
        <Alert color="green" role="status" title={t("food_bulk.created", { count: created })}>
          {categories ? t("food_bulk.categories_created", { count: categories }) : null}
        </Alert>
      ) : null}
      {rows ? (
        <RowErrors
          id="bulk-errors"
          rows={rows.rows}
          errorCount={rows.errorCount}
          rowsChecked={rows.rowsChecked}
          report={csvReportLink(rows.report, "menu-items-error-report.csv")}
          keys={ROW_ERRORS_KEYS}
        />
      ) : null}
      <ExampleFiles path={EXAMPLE_PATH} keys={EXAMPLE_KEYS} />
      <Card withBorder padding="lg">
        <Form method="post" encType="multipart/form-data">
          <Stack gap="md">
            <SpreadsheetFileField
              id="bulk-file"
              label={t("food_bulk.file_label")}
              description={t("food_bulk.file_hint", { megabytes: BULK_MAX_BYTES / 1024 / 1024 })}
              error={fileError}
            />
            <UploadButton keys={UPLOAD_KEYS} />
          </Stack>
        </Form>
      </Card>
      <ColumnsHelp columns={ALL_COLUMNS} required={REQUIRED_COLUMNS} keys={COLUMNS_KEYS} />
    </Stack>
  );
}
