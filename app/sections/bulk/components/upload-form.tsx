import { Alert, Button, Card, Group, Input, Loader, NativeSelect, Radio, SimpleGrid, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { BULK_MAX_BYTES, BULK_MAX_ROWS } from "../domain/bulk-columns";
import { formatCount } from "~/lib/format";
import type { Language } from "~/lib/i18n";

export type UploadFormValues = { channel: string; schedule: string; language: string };
export type UploadFormErrors = { file?: string[]; channel?: string[]; schedule?: string[]; language?: string[] };

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

/** An upload that failed for a reason of ours, not the file's: a notice at the foot of the screen. */
export function UploadFailedNotice() {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" variant="filled" style={{ position: "fixed", insetInline: "1rem", bottom: "1rem", zIndex: 300, maxWidth: 480, marginInline: "auto" }}>
      {t("bulk.upload_failed")}
    </Alert>
  );
}
