import { Card, Table, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Public spec: a value with "~" splits into rows, each row split at its first ":" into two cells. */
export function remarkRows(remarks: string | null): [string, string][] {
  if (!remarks) return [];
  return remarks
    .split("~")
    .map((row) => row.trim())
    .filter(Boolean)
    .map((row) => {
      const index = row.indexOf(":");
      return index === -1 ? [row, ""] : [row.slice(0, index).trim(), row.slice(index + 1).trim()];
    });
}

export function Remarks({ rows }: { rows: [string, string][] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="xs">{t("pay.remarks")}</Title>
      <Table variant="vertical">
        <Table.Tbody>
          {rows.map(([label, value], index) => (
            <Table.Tr key={index}>
              <Table.Th w="40%">{label}</Table.Th>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
