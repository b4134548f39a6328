import { Button, Group, Paper, Stack, Text } from "@mantine/core";
import { Callout } from "~/components/callout";
import { IconChevronDown, IconDownload } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useSearchParams } from "react-router";
import { CheckboxChoice, RadioChoice, RadioChoices } from "~/components/choice";
import type { Language } from "~/lib/i18n";

export type ExportFieldChoice = { name: string; label_en: string; label_ar: string };
export type ExportPopoverConfig = {
  builtin_fields: ExportFieldChoice[];
  custom_fields: ExportFieldChoice[];
  other_fields: ExportFieldChoice[];
  default: string[];
};

const ERROR_KEYS = new Set([
  "unknown_section",
  "unknown_format",
  "unknown_type",
  "unknown_language",
  "query_too_long",
  "no_fields",
  "unknown_field",
  "no_default_fields",
]);

/**
 * Export Transactions (dashboard spec §2): CSV or XLS, the default fields or a selection, the
 * list's filters applied. A <details> disclosure, so it opens and posts without JavaScript; a
 * refused request comes back with export_error and the panel opens on the reason.
 */
export function ExportPopover({
  section,
  query,
  config,
  lang,
}: {
  section: string;
  query: string;
  config: ExportPopoverConfig;
  lang: Language;
}) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const errorKey = searchParams.get("export_error");
  const error = errorKey && ERROR_KEYS.has(errorKey) ? errorKey : null;
  const [exportType, setExportType] = useState(
    error === "no_fields" || error === "unknown_field" ? "selected" : "default",
  );
  const ref = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const close = (event: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !details.contains(event.target as Node))
        details.open = false;
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  const label = (field: ExportFieldChoice) => (lang === "ar" ? field.label_ar : field.label_en);
  const groups = [
    { key: "builtin_fields", fields: config.builtin_fields },
    { key: "custom_fields", fields: config.custom_fields },
    { key: "other_fields", fields: config.other_fields },
  ].filter((group) => group.fields.length > 0);
  const chosenByDefault = new Set(config.default);
  const listQuery = new URLSearchParams(query.replace(/^\?/, ""));
  listQuery.delete("export_error");

  return (
    <details className="disclosure-menu" ref={ref} open={error ? true : undefined}>
      <summary>
        <Button
          component="span"
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          {t("exports.button")}
        </Button>
      </summary>
      <Paper withBorder shadow="md" p="md" className="disclosure-menu__panel" w={340} maw="calc(100vw - 32px)">
        <Form method="post" action={`/${lang}/transactions/export`}>
          <input type="hidden" name="section" value={section} />
          <input type="hidden" name="query" value={listQuery.toString()} />
          <input type="hidden" name="language" value={lang} />
          <Stack gap="sm">
            <Text fw={600}>{t("exports.title")}</Text>
            {error ? (
              <Callout color="red" role="alert" compact>
                {t(`exports.errors.${error}`)}
              </Callout>
            ) : null}
            <RadioChoices legend={t("exports.file_format")}>
              <Group gap="md">
                <RadioChoice name="file_format" value="csv" defaultChecked label={t("exports.csv")} />
                <RadioChoice name="file_format" value="xls" label={t("exports.xls")} />
              </Group>
            </RadioChoices>
            <RadioChoices legend={t("exports.export_type")}>
              <Stack gap={6}>
                <RadioChoice
                  name="export_type"
                  value="default"
                  checked={exportType === "default"}
                  onChange={() => setExportType("default")}
                  label={t("exports.type_default")}
                />
                <RadioChoice
                  name="export_type"
                  value="selected"
                  checked={exportType === "selected"}
                  onChange={() => setExportType("selected")}
                  label={t("exports.type_selected")}
                />
              </Stack>
            </RadioChoices>
            <div className="export-fields" tabIndex={0} role="group" aria-label={t("exports.field_list")}>
              <Stack gap="xs">
                {groups.map((group) => (
                  <fieldset key={group.key} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
                    <Text component="legend" size="sm" fw={600} mb={4}>
                      {t(`exports.${group.key}`)}
                    </Text>
                    <Stack gap={4}>
                      {group.fields.map((field) => (
                        <CheckboxChoice
                          key={field.name}
                          name="fields"
                          value={field.name}
                          label={label(field)}
                          defaultChecked={chosenByDefault.has(field.name)}
                          onChange={() => setExportType("selected")}
                          size="sm"
                        />
                      ))}
                    </Stack>
                  </fieldset>
                ))}
              </Stack>
            </div>
            <Text size="xs" c="dimmed">
              {t("exports.filters_note")}
            </Text>
            <Button type="submit" leftSection={<IconDownload size={16} aria-hidden />}>
              {t("exports.submit")}
            </Button>
          </Stack>
        </Form>
      </Paper>
    </details>
  );
}
