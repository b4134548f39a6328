import { Button, Paper, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** A refused row's error as the page lists it; `cell` is the spreadsheet reference, where the section names one. */
export type ListedRowError = { row: number; column: string; cell?: string; message: string };

/** The words of one section's list: translation keys; `cell` adds the column of spreadsheet references. */
export type RowErrorsKeys = {
  title: string;
  summary: string;
  download: string;
  row: string;
  column: string;
  cell?: string;
  error: string;
  moreErrors: string;
};

/** An error report made on the page: the CSV itself as the link, so it downloads without another request. */
export function csvReportLink(csv: string, fileName: string) {
  return { href: `data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`, fileName };
}

/**
 * The rows of a spreadsheet upload that were refused: shown as a dialog on the page (no script
 * needed), with the error report to download. `id` names the dialog's title and summary for
 * assistive technology; without a file name the report keeps the name its server gives it.
 */
export function RowErrors({
  id,
  rows,
  errorCount,
  rowsChecked,
  report,
  keys,
}: {
  id: string;
  rows: ListedRowError[];
  errorCount: number;
  rowsChecked: number;
  report: { href: string; fileName?: string };
  keys: RowErrorsKeys;
}) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      p="lg"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      style={{ borderColor: "var(--mantine-color-red-6)" }}
    >
      <Title order={2} fz="h4" id={`${id}-title`} c="red.8">
        {t(keys.title)}
      </Title>
      <Text size="sm" id={`${id}-summary`} mb="sm">
        {t(keys.summary, { errors: errorCount, rows: rowsChecked })}
      </Text>
      <Button component="a" href={report.href} download={report.fileName ?? true} variant="light" color="red" mb="sm">
        {t(keys.download)}
      </Button>
      <Table.ScrollContainer minWidth={480} mah={420}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t(keys.row)}</Table.Th>
              <Table.Th>{t(keys.column)}</Table.Th>
              {keys.cell ? <Table.Th>{t(keys.cell)}</Table.Th> : null}
              <Table.Th>{t(keys.error)}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((error, index) => (
              <Table.Tr key={`${error.row}-${error.column}-${index}`}>
                <Table.Td>{error.row}</Table.Td>
                <Table.Td ff="monospace">{error.column}</Table.Td>
                {keys.cell ? <Table.Td ff="monospace">{error.cell}</Table.Td> : null}
                <Table.Td>{error.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {errorCount > rows.length ? (
        <Text size="sm" mt="xs">
          {t(keys.moreErrors, { count: errorCount - rows.length })}
        </Text>
      ) : null}
    </Paper>
  );
}
