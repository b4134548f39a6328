import { Alert, Anchor, Button, Card, Group, Input, List, Loader, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/products-upload";
import { PageHeader } from "~/components/page-header";
import { translator } from "~/lib/i18n.server";
import { ALL_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, REQUIRED_COLUMNS } from "~/sections/catalogue/domain/bulk-columns";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { uploadProducts } from "~/sections/catalogue/presentation/import.server";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** Bad cells listed on the page; the error report holds them all. */
const SHOWN_ERRORS = 200;
const EXAMPLE_PATH = "/api/v1/plugins/catalogue/dashboard/upload/product/example";
const need = { feature: "product_upload", permission: "change_product" } as const;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "استيراد المنتجات" : "Import products" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { lang } = await guardCataloguePage(context, request, params, need);
  const url = new URL(request.url);
  const count = (name: string) => (/^\d{1,6}$/.test(url.searchParams.get(name) ?? "") ? Number(url.searchParams.get(name)) : null);
  return { lang, created: count("created"), updated: count("updated"), megabytes: IMPORT_MAX_BYTES / 1024 / 1024, maxRows: IMPORT_MAX_ROWS };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, actor } = await guardCataloguePage(context, request, params, need);
  if (Number(request.headers.get("Content-Length") ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
    return data({ file: [translator(lang)("catalogue_admin.import.errors.too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 })] }, { status: 400 });
  }
  const form = await readFormData(request);
  const outcome = await uploadProducts(getDbFrom(context), { merchantId: auth.user.merchantId, actor, file: form.get("file"), lang, ip: context.get(clientAddressContext) });
  if (outcome.ok) return redirect(`/${lang}/catalogue/products/upload?created=${outcome.created}&updated=${outcome.updated}`, 303);
  if ("file" in outcome) return data({ file: outcome.file }, { status: 400 });
  return data({ rows: outcome.rows.slice(0, SHOWN_ERRORS), errorCount: outcome.rows.length, rowsChecked: outcome.rowsChecked, report: outcome.report }, { status: 400 });
}

export default function ProductsUpload() {
  const { t } = useTranslation();
  const { lang, created, updated, megabytes, maxRows } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
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
      {rows ? <RowErrors rows={rows.rows} errorCount={rows.errorCount} rowsChecked={rows.rowsChecked} report={rows.report} /> : null}
      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="xs">
          {t("catalogue_admin.import.examples_title")}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t("catalogue_admin.import.examples_hint")}
        </Text>
        <Group gap="lg">
          {(["required_fields", "all_fields"] as const).map((type) => (
            <Group key={type} gap="xs">
              <Text size="sm" fw={500}>
                {t(type === "required_fields" ? "catalogue_admin.import.example_required" : "catalogue_admin.import.example_all")}:
              </Text>
              {(["csv", "xlsx"] as const).map((format) => (
                <Anchor key={format} href={`${EXAMPLE_PATH}?type=${type}&format=${format}`} download size="sm">
                  {format.toUpperCase()}
                </Anchor>
              ))}
            </Group>
          ))}
        </Group>
      </Card>
      <Card withBorder padding="lg">
        <Form method="post" encType="multipart/form-data">
          <Stack gap="md">
            <Input.Wrapper label={t("catalogue_admin.import.file_label")} description={t("catalogue_admin.import.file_hint", { megabytes, rows: maxRows })} error={fileError} required id="import-file">
              <input
                id="import-file"
                type="file"
                name="file"
                required
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                aria-invalid={fileError ? true : undefined}
                aria-describedby={fileError ? "import-file-error import-file-description" : "import-file-description"}
                style={{ display: "block", marginTop: 6 }}
              />
            </Input.Wrapper>
            <Group>
              <Button type="submit" loading={busy}>
                {t("catalogue_admin.import.upload")}
              </Button>
              {busy ? (
                <Group gap="xs" role="status">
                  <Loader size="xs" />
                  <Text size="sm">{t("catalogue_admin.import.uploading")}</Text>
                </Group>
              ) : null}
            </Group>
          </Stack>
        </Form>
      </Card>
      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="xs">
          {t("catalogue_admin.import.columns_title")}
        </Title>
        <Text size="sm" mb="xs">
          {t("catalogue_admin.import.rules")}
        </Text>
        <List size="sm" spacing={4}>
          {ALL_COLUMNS.map((column) => (
            <List.Item key={column}>
              <Text span ff="monospace" size="sm">
                {column}
              </Text>
              {(REQUIRED_COLUMNS as readonly string[]).includes(column) ? ` (${t("catalogue_admin.import.required")})` : ""} — {t(`catalogue_admin.import.column_help.${column}`)}
            </List.Item>
          ))}
        </List>
      </Card>
    </Stack>
  );
}

/** The rows refused: shown as a dialog on the page (no script needed), with the error report to download. */
function RowErrors({ rows, errorCount, rowsChecked, report }: { rows: { row: number; column: string; message: string }[]; errorCount: number; rowsChecked: number; report: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" role="alertdialog" aria-labelledby="import-errors-title" aria-describedby="import-errors-summary" style={{ borderColor: "var(--mantine-color-red-6)" }}>
      <Title order={2} fz="h4" id="import-errors-title" c="red.8">
        {t("catalogue_admin.import.rows_title")}
      </Title>
      <Text size="sm" id="import-errors-summary" mb="sm">
        {t("catalogue_admin.import.rows_summary", { errors: errorCount, rows: rowsChecked })}
      </Text>
      <Button component="a" href={`data:text/csv;charset=utf-8,${encodeURIComponent(report)}`} download="products-error-report.csv" variant="light" color="red" mb="sm">
        {t("catalogue_admin.import.download_report")}
      </Button>
      <Table.ScrollContainer minWidth={480} mah={420}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("catalogue_admin.import.row")}</Table.Th>
              <Table.Th>{t("catalogue_admin.import.column")}</Table.Th>
              <Table.Th>{t("catalogue_admin.import.error")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((error, index) => (
              <Table.Tr key={`${error.row}-${error.column}-${index}`}>
                <Table.Td>{error.row}</Table.Td>
                <Table.Td ff="monospace">{error.column}</Table.Td>
                <Table.Td>{error.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {errorCount > rows.length ? (
        <Text size="sm" mt="xs">
          {t("catalogue_admin.import.more_errors", { count: errorCount - rows.length })}
        </Text>
      ) : null}
    </Paper>
  );
}
