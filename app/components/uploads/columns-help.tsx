import { Card, List, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** The words of one section's card: translation keys; each column's help is `${columnHelp}.${column}`. */
export type ColumnsHelpKeys = { title: string; required: string; columnHelp: string };

/** What each column of a spreadsheet upload holds, the required ones marked; `children` stand between the title and the list. */
export function ColumnsHelp({
  columns,
  required,
  keys,
  children,
}: {
  columns: readonly string[];
  required: readonly string[];
  keys: ColumnsHelpKeys;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="xs">
        {t(keys.title)}
      </Title>
      {children}
      <List size="sm" spacing={4}>
        {columns.map((column) => (
          <List.Item key={column}>
            <Text span ff="monospace" size="sm">
              {column}
            </Text>
            {required.includes(column) ? ` (${t(keys.required)})` : ""} — {t(`${keys.columnHelp}.${column}`)}
          </List.Item>
        ))}
      </List>
    </Card>
  );
}
