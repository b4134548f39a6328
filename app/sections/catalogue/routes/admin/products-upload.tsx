import { Alert, Anchor, Card, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/products-upload";
import { PageHeader } from "~/components/page-header";
import { ColumnsHelp } from "~/components/uploads/columns-help";
import { ExampleFiles } from "~/components/uploads/example-files";
import { csvReportLink, RowErrors } from "~/components/uploads/row-errors";
import { SpreadsheetFileField, UploadButton } from "~/components/uploads/spreadsheet-form";
import { translator } from "~/lib/i18n.server";
import {
  ALL_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  REQUIRED_COLUMNS,
} from "~/sections/catalogue/domain/bulk-columns";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { uploadProducts } from "~/sections/catalogue/presentation/import.server";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** Bad cells listed on the page; the error report holds them all. */
const SHOWN_ERRORS = 200;
const EXAMPLE_PATH = "/api/v1/plugins/catalogue/dashboard/upload/product/example";
const EXAMPLE_KEYS = {
  title: "catalogue_admin.import.examples_title",
  hint: "catalogue_admin.import.examples_hint",
  required: "catalogue_admin.import.example_required",
  all: "catalogue_admin.import.example_all",
};
const COLUMNS_KEYS = {
  title: "catalogue_admin.import.columns_title",
  required: "catalogue_admin.import.required",
  columnHelp: "catalogue_admin.import.column_help",
};
const UPLOAD_KEYS = { upload: "catalogue_admin.import.upload", uploading: "catalogue_admin.import.uploading" };
const ROW_ERRORS_KEYS = {
  title: "catalogue_admin.import.rows_title",
  summary: "catalogue_admin.import.rows_summary",
  download: "catalogue_admin.import.download_report",
  row: "catalogue_admin.import.row",
  column: "catalogue_admin.import.column",
  error: "catalogue_admin.import.error",
  moreErrors: "catalogue_admin.import.more_errors",
};
const need = { feature: "product_upload", permission: "change_product" } as const;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "استيراد المنتجات" : "Import products" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { lang } = await guardCataloguePage(context, request, params, need);
  const url = new URL(request.url);
  const count = (name: string) =>
    /^\d{1,6}$/.test(url.searchParams.get(name) ?? "") ? Number(url.searchParams.get(name)) : null;
  return {
    lang,
    created: count("created"),
    updated: count("updated"),
    megabytes: IMPORT_MAX_BYTES / 1024 / 1024,
    maxRows: IMPORT_MAX_ROWS,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, actor } = await guardCataloguePage(context, request, params, need);
  if (Number(request.headers.get("Content-Length") ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
    return data(
      { file: [translator(lang)("catalogue_admin.import.errors.too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 })] },
      { status: 400 },
    );
  }
  const form = await readFormData(request);
  const outcome = await uploadProducts(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor,
    file: form.get("file"),
    lang,
    ip: context.get(clientAddressContext),
  });
  if (outcome.ok)
    return redirect(`/${lang}/catalogue/products/upload?created=${outcome.created}&updated=${outcome.updated}`, 303);
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

export default function ProductsUpload() {
  const { t } = useTranslation();
  const { lang, created, updated, megabytes, maxRows } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const fileError = answer && "file" in answer ? answer.file?.join(" ") : undefined;
  const rows = answer && "rows" in answer ? answer : null;
  return (
    <Stack maw={900}>
      <PageHeader title={t("catalogue_admin.import.title")} description={t("catalogue_admin.import.description")} />
      <Anchor component={Link} to={`/${lang}/catalogue/products`}>
        {t("catalogue_admin.products.back")}
      </Anchor>
      {created !== null && !answer ? (
        <Alert color="green" role="status" title={t("catalogue_admin.import.done", { created, updated: updated ?? 0 })}>
          <Anchor component={Link} to={`/${lang}/catalogue/products`}>
            {t("catalogue_admin.import.see_products")}
          </Anchor>
        </Alert>
      ) : null}
      {rows ? (
        <RowErrors
          id="import-errors"
          rows={rows.rows}
          errorCount={rows.errorCount}
          rowsChecked={rows.rowsChecked}
          report={csvReportLink(rows.report, "products-error-report.csv")}
          keys={ROW_ERRORS_KEYS}
        />
      ) : null}
      <ExampleFiles path={EXAMPLE_PATH} keys={EXAMPLE_KEYS} />
      <Card withBorder padding="lg">
        <Form method="post" encType="multipart/form-data">
          <Stack gap="md">
            <SpreadsheetFileField
              id="import-file"
              label={t("catalogue_admin.import.file_label")}
              description={t("catalogue_admin.import.file_hint", { megabytes, rows: maxRows })}
              error={fileError}
            />
            <UploadButton keys={UPLOAD_KEYS} />
          </Stack>
        </Form>
      </Card>
      <ColumnsHelp columns={ALL_COLUMNS} required={REQUIRED_COLUMNS} keys={COLUMNS_KEYS}>
        <Text size="sm" mb="xs">
          {t("catalogue_admin.import.rules")}
        </Text>
      </ColumnsHelp>
    </Stack>
  );
}
