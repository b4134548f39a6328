import { Anchor, Card, Group, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** The words of one section's card: translation keys. */
export type ExampleFilesKeys = { title: string; hint: string; required: string; all: string };

/** The example files of a spreadsheet upload: required fields or all fields, each as CSV or XLSX, from the section's example API. */
export function ExampleFiles({ path, keys }: { path: string; keys: ExampleFilesKeys }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="xs">
        {t(keys.title)}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(keys.hint)}
      </Text>
      <Group gap="lg">
        {(["required_fields", "all_fields"] as const).map((type) => (
          <Group key={type} gap="xs">
            <Text size="sm" fw={500}>
              {t(type === "required_fields" ? keys.required : keys.all)}:
            </Text>
            {(["csv", "xlsx"] as const).map((format) => (
              <Anchor key={format} href={`${path}?type=${type}&format=${format}`} download size="sm">
                {format.toUpperCase()}
              </Anchor>
            ))}
          </Group>
        ))}
      </Group>
    </Card>
  );
}
