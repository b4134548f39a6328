import { Card, Group, Pagination, Table, Text, type TableTrProps } from "@mantine/core";
import type { ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";

/** One column of a list: its header, what each row shows in it, and whether that stays on one line. */
export type DataColumn<Row> = { key: string; header: ReactNode; cell: (row: Row) => ReactNode; nowrap?: boolean };

/**
 * The dashboard's plain lists (requests, reports, the mailbox): a bordered table that scrolls
 * sideways on narrow screens, or a line saying there is nothing yet.
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  empty,
  minWidth,
  rowProps,
  hover = true,
}: {
  rows: readonly Row[];
  columns: readonly DataColumn<Row>[];
  rowKey: (row: Row) => string | number;
  empty: string;
  minWidth: number;
  rowProps?: (row: Row) => TableTrProps;
  hover?: boolean;
}) {
  return (
    <Card withBorder padding={0}>
      {rows.length === 0 ? (
        <Text p="lg" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Table.ScrollContainer type="native" minWidth={minWidth}>
          <Table highlightOnHover={hover}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.key}>{column.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.key}
                      style={column.nowrap ? { whiteSpace: "nowrap" } : { overflowWrap: "anywhere" }}
                    >
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** The same view on another page: every page and arrow is a link, so it works without JavaScript. */
function pageHref(search: string, page: number) {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "?";
}

/** Pages of a list, keeping the rest of the query string; `count` says how many rows there are in all. */
export function ListPagination({ page, pages, count }: { page: number; pages: number; count?: string }) {
  const { search } = useLocation();
  const navigate = useNavigate();
  if (pages <= 1 && count === undefined) return null;
  return (
    <Group justify={count === undefined ? "center" : "space-between"} mt="md">
      {count !== undefined ? (
        <Text size="sm" c="dimmed">
          {count}
        </Text>
      ) : null}
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={(value) => navigate(pageHref(search, value))}
          getItemProps={(value) => ({ component: "a", href: pageHref(search, value) })}
          getControlProps={(control) => {
            const target =
              control === "first"
                ? 1
                : control === "last"
                  ? pages
                  : control === "previous"
                    ? Math.max(1, page - 1)
                    : Math.min(pages, page + 1);
            return { component: "a", href: pageHref(search, target) };
          }}
        />
      ) : null}
    </Group>
  );
}
