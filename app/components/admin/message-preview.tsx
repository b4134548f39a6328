import { Card, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

export type MessagePreviewData =
  { channel: "mail"; subject: string; html: string; text: string } | { channel: "sms"; text: string };

/**
 * A message as its reader gets it: a mail's subject, its HTML part in a sandbox where nothing runs
 * and nothing reaches this page, and its plain-text part; a text message's words.
 */
export function MessagePreview({
  preview,
  unsaved,
  lang,
}: {
  preview: MessagePreviewData;
  unsaved: boolean;
  lang: "en" | "ar";
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" id="preview">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t("admin.templates.preview")}
        </Title>
        <Text size="sm" c="dimmed">
          {t(unsaved ? "admin.templates.preview_unsaved" : "admin.templates.preview_saved")}
        </Text>
        {preview.channel === "mail" ? (
          <>
            <Text size="sm">
              <Text span c="dimmed">
                {t("admin.templates.parts.subject")}:
              </Text>{" "}
              <bdi>{preview.subject}</bdi>
            </Text>
            <Title order={3} fz="h6">
              {t("admin.templates.html_part")}
            </Title>
            <Card withBorder padding={0}>
              <iframe
                title={t("admin.templates.html_part")}
                srcDoc={preview.html}
                sandbox=""
                style={{ width: "100%", height: 560, border: 0, background: "#f1f3f5" }}
              />
            </Card>
            <Title order={3} fz="h6">
              {t("admin.templates.text_part")}
            </Title>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t("admin.templates.sms_length", { length: preview.text.length })}
          </Text>
        )}
        <Card withBorder bg="gray.0">
          <Text
            component="pre"
            lang={lang}
            dir={lang === "ar" ? "rtl" : "ltr"}
            style={{ whiteSpace: "pre-wrap", fontFamily: "inherit", margin: 0 }}
          >
            {preview.text}
          </Text>
        </Card>
      </Stack>
    </Card>
  );
}
