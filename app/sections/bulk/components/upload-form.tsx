import { Alert, Anchor, Button, Card, Group, Input, List, Loader, NativeSelect, Paper, Radio, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { ALL_COLUMNS, BULK_MAX_BYTES, BULK_MAX_ROWS, REQUIRED_COLUMNS } from "../domain/bulk-columns";
import { formatCount } from "~/lib/format";
import type { Language } from "~/lib/i18n";

export const EXAMPLE_PATH = "/api/v1/plugins/bulk/upload/example";

export type UploadFormValues = { channel: string; schedule: string; language: string };
export type UploadFormErrors = { file?: string[]; channel?: string[]; schedule?: string[]; language?: string[] };

/** The example files: required fields or all fields, each as CSV or XLSX. */
export function ExampleFiles() {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="xs">
        {t("bulk.examples_title")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t("bulk.examples_hint")}
      </Text>
      <Group gap="lg">
        {(["required_fields", "all_fields"] as const).map((type) => (
          <Group key={type} gap="xs">
            <Text size="sm" fw={500}>
              {t(type === "required_fields" ? "bulk.example_required" : "bulk.example_all")}:
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
  );
}

/** The upload form: a plain multipart post, so it works without JavaScript; what was chosen is kept after an error. */
export function UploadForm({ values, errors, lang, uploadToken }: { values: UploadFormValues; errors: UploadFormErrors; lang: Language; uploadToken: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const fileError = errors.file?.join(" ");
  const fieldError = (name: "channel" | "schedule" | "language") => (errors[name]?.length ? t(errors[name]![0]) : undefined);
  return (
    <Card withBorder padding="lg">
      <Form method="post" encType="multipart/form-data">
        <input type="hidden" name="upload_token" value={uploadToken} />
        <Stack gap="md">
          <Input.Wrapper
            label={t("bulk.file_label")}
            description={t("bulk.file_hint", { megabytes: BULK_MAX_BYTES / 1024 / 1024, rows: formatCount(BULK_MAX_ROWS, lang) })}
            error={fileError}
            errorProps={{ id: "bulk-file-error", role: "alert" }}
            required
            id="bulk-file"
          >
            <input
              id="bulk-file"
              type="file"
              name="file"
              required
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? "bulk-file-error bulk-file-description" : "bulk-file-description"}
              style={{ display: "block", marginTop: 6, maxWidth: "100%" }}
            />
          </Input.Wrapper>
          <Radio.Group name="channel" label={t("bulk.channel_label")} description={t("bulk.channel_hint")} defaultValue={values.channel} error={fieldError("channel")}>
            <Group mt="xs" gap="lg">
              {(["email", "sms", "email_sms", "none"] as const).map((channel) => (
                <Radio key={channel} value={channel} label={t(`bulk.channels.${channel}`)} />
              ))}
            </Group>
          </Radio.Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect
              name="language"
              label={t("bulk.language_label")}
              description={t("bulk.language_hint")}
              defaultValue={values.language}
              error={fieldError("language")}
              data={[
                { value: "en", label: "English" },
                { value: "ar", label: "العربية" },
              ]}
            />
            <NativeSelect
              name="schedule"
              label={t("bulk.schedule_label")}
              description={t("bulk.schedule_hint")}
              defaultValue={values.schedule}
              error={fieldError("schedule")}
              data={(["none", "weekly", "monthly"] as const).map((schedule) => ({ value: schedule, label: t(`bulk.schedule_choices.${schedule}`) }))}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={busy}>
              {t("bulk.upload")}
            </Button>
            {busy ? (
              <Group gap="xs" role="status">
                <Loader size="xs" />
                <Text size="sm">{t("bulk.uploading")}</Text>
              </Group>
            ) : null}
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}

/** What each column holds. */
export function ColumnsHelp() {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="xs">
        {t("bulk.columns_title")}
      </Title>
      <List size="sm" spacing={4}>
        {ALL_COLUMNS.map((column) => (
          <List.Item key={column}>
            <Text span ff="monospace" size="sm">
              {column}
            </Text>
            {(REQUIRED_COLUMNS as readonly string[]).includes(column) ? ` (${t("bulk.required")})` : ""} — {t(`bulk.column_help.${column}`)}
          </List.Item>
        ))}
      </List>
    </Card>
  );
}

/** The bad cells: shown as a dialog on the page (no script needed), with the error file to download. */
export function RowErrors({ rows, errorCount, rowsChecked, reportUrl }: { rows: { row: number; column: string; cell: string; message: string }[]; errorCount: number; rowsChecked: number; reportUrl: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" role="alertdialog" aria-labelledby="bulk-errors-title" aria-describedby="bulk-errors-summary" style={{ borderColor: "var(--mantine-color-red-6)" }}>
      <Title order={2} fz="h4" id="bulk-errors-title" c="red.8">
        {t("bulk.rows_title")}
      </Title>
      <Text size="sm" id="bulk-errors-summary" mb="sm">
        {t("bulk.rows_summary", { errors: errorCount, rows: rowsChecked })}
      </Text>
      <Button component="a" href={reportUrl} download variant="light" color="red" mb="sm">
        {t("bulk.download_report")}
      </Button>
      <Table.ScrollContainer minWidth={480} mah={420}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("bulk.report.row")}</Table.Th>
              <Table.Th>{t("bulk.report.column")}</Table.Th>
              <Table.Th>{t("bulk.report.cell")}</Table.Th>
              <Table.Th>{t("bulk.report.error")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((error, index) => (
              <Table.Tr key={`${error.row}-${error.column}-${index}`}>
                <Table.Td>{error.row}</Table.Td>
                <Table.Td ff="monospace">{error.column}</Table.Td>
                <Table.Td ff="monospace">{error.cell}</Table.Td>
                <Table.Td>{error.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {errorCount > rows.length ? (
        <Text size="sm" mt="xs">
          {t("bulk.more_errors", { count: errorCount - rows.length })}
        </Text>
      ) : null}
    </Paper>
  );
}

/** An upload that failed for a reason of ours, not the file's: a notice at the foot of the screen. */
export function UploadFailedNotice() {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" variant="filled" style={{ position: "fixed", insetInline: "1rem", bottom: "1rem", zIndex: 300, maxWidth: 480, marginInline: "auto" }}>
      {t("bulk.upload_failed")}
    </Alert>
  );
}
