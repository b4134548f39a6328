import { Alert, Card, Group, NativeSelect, Radio, SimpleGrid, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { SpreadsheetFileField, UploadButton } from "~/components/uploads/spreadsheet-form";
import { BULK_MAX_BYTES, BULK_MAX_ROWS } from "../domain/bulk-columns";
import { formatCount } from "~/lib/format";
import type { Language } from "~/lib/i18n";

export type UploadFormValues = { channel: string; schedule: string; language: string };
export type UploadFormErrors = { file?: string[]; channel?: string[]; schedule?: string[]; language?: string[] };

/** The upload form: a plain multipart post, so it works without JavaScript; what was chosen is kept after an error. */
export function UploadForm({
  values,
  errors,
  lang,
  uploadToken,
}: {
  values: UploadFormValues;
  errors: UploadFormErrors;
  lang: Language;
  uploadToken: string;
}) {
  const { t } = useTranslation();
  const fileError = errors.file?.join(" ");
  const fieldError = (name: "channel" | "schedule" | "language") =>
    errors[name]?.length ? t(errors[name]![0]) : undefined;
  return (
    <Card withBorder padding="lg">
      <Form method="post" encType="multipart/form-data">
        <input type="hidden" name="upload_token" value={uploadToken} />
        <Stack gap="md">
          <SpreadsheetFileField
            id="bulk-file"
            label={t("bulk.file_label")}
            description={t("bulk.file_hint", {
              megabytes: BULK_MAX_BYTES / 1024 / 1024,
              rows: formatCount(BULK_MAX_ROWS, lang),
            })}
            error={fileError}
            errorProps={{ id: "bulk-file-error", role: "alert" }}
            inputStyle={{ maxWidth: "100%" }}
          />
          <Radio.Group
            name="channel"
            label={t("bulk.channel_label")}
            description={t("bulk.channel_hint")}
            defaultValue={values.channel}
            error={fieldError("channel")}
          >
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
              data={(["none", "weekly", "monthly"] as const).map((schedule) => ({
                value: schedule,
                label: t(`bulk.schedule_choices.${schedule}`),
              }))}
            />
          </SimpleGrid>
          <UploadButton keys={{ upload: "bulk.upload", uploading: "bulk.uploading" }} />
        </Stack>
      </Form>
    </Card>
  );
}

/** An upload that failed for a reason of ours, not the file's: a notice at the foot of the screen. */
export function UploadFailedNotice() {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      role="alert"
      variant="filled"
      style={{
        position: "fixed",
        insetInline: "1rem",
        bottom: "1rem",
        zIndex: 300,
        maxWidth: 480,
        marginInline: "auto",
      }}
    >
      {t("bulk.upload_failed")}
    </Alert>
  );
}
