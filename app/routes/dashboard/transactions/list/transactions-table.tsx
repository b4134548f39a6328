import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text } from "@mantine/core";
import { CheckboxChoice } from "~/components/choice";
import { useEffect, useState, type CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { StateBadge } from "~/components/state-badge";
import { RowActionsMenu } from "~/components/transactions/row-actions-menu";
import { withParams } from "~/domain/transactions/filters";
import type { ListData } from "./query-params";

export function RowActions({
  row,
  basePath,
  search,
}: {
  row: ListData["rows"][number];
  basePath: string;
  search: string;
}) {
  const items = row.actions.map((action) => {
    const dialog =
      action.value === "refund" || action.value === "capture" || action.value === "void" ? "operation" : "confirm";
    return {
      value: action.value,
      label: action.display_name,
      to: `${basePath}${withParams(search, { operation: null, confirm: null, [dialog]: action.value, id: row.id, done: null })}`,
    };
  });
  return <RowActionsMenu orderNo={row.orderNo} items={items} />;
}

/** Columns whose values read on one line: times, amounts, numbers, the state. */
const ONE_LINE = new Set([
  "order_no",
  "created",
  "state_changed_at",
  "expiration_time",
  "amount",
  "paid_amount",
  "fee",
  "refunded_amount",
  "currency_code",
  "state",
  "customer_phone",
]);

/** Long single words (an e-mail address) end in an ellipsis on one line; the whole value is the cell's title. Narrow enough that the default columns fit 1366 px whatever the time of day and the state. */
const CLIPPED = new Set(["customer_email", "id", "pg_codes"]);
const CLIP: CSSProperties = {
  display: "block",
  maxWidth: 140,
  whiteSpace: "nowrap",
  overflow: "hidden",
  textOverflow: "ellipsis",
};

/**
 * The Actions column stays in view at the row's end (the left in Arabic) whatever the other columns
 * do, drawn over them on the page's background when the table has to scroll on a narrow screen.
 */
const STICKY_END: CSSProperties = {
  position: "sticky",
  insetInlineEnd: 0,
  zIndex: 1,
  background: "var(--mantine-color-body)",
  borderInlineStart: "1px solid var(--mantine-color-default-border)",
  whiteSpace: "nowrap",
};

/**
 * The rows in the chosen columns, each with its actions and its refunds, captures and voids below
 * it; with bulk actions, the rows can be selected. One form posts the bulk action.
 */
export function TransactionsTable({ data }: { data: ListData }) {
  const { t, i18n } = useTranslation();
  const rtl = i18n.dir() === "rtl";
  const location = useLocation();
  const [hydrated, setHydrated] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  useEffect(() => setHydrated(true), []);
  const selectable = data.bulkActions.length > 0;
  const togglePlace = Math.max(
    0,
    data.columns.findIndex((column) => column.name === "state"),
  );
  const detailPath = (id: string, plugin: string) => `${data.place.basePath}/${id}?type=${plugin}`;
  return (
    <Form method="post" id="rows-form">
      <input type="hidden" name="intent" value="bulk" />
      {data.rows.length > 0 && selectable ? (
        <Group gap="xs" mb="xs" align="flex-end">
          <NativeSelect
            name="bulk_action"
            label={t("transactions.bulk_actions")}
            data={data.bulkActions.map((name) => ({ value: name, label: t(`actions.${name}`) }))}
            size="xs"
          />
          <Button type="submit" size="xs" variant="default">
            {t("transactions.apply")}
          </Button>
        </Group>
      ) : null}
      <Table.ScrollContainer type="native" minWidth={640}>
        <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={8} className="transactions-table">
          <Table.Thead>
            <Table.Tr>
              {selectable ? (
                <Table.Th w={36}>
                  <span className="visually-hidden">{t("transactions.select")}</span>
                </Table.Th>
              ) : null}
              {data.columns.map((column) => (
                <Table.Th key={column.name} style={ONE_LINE.has(column.name) ? { whiteSpace: "nowrap" } : undefined}>
                  {column.label}
                </Table.Th>
              ))}
              <Table.Th style={STICKY_END}>{t("transactions.actions")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={data.columns.length + (selectable ? 2 : 1)}>
                  <Text c="dimmed" ta="center" py="lg">
                    {t("transactions.empty")}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {data.rows.flatMap((row) => {
              const open = !hydrated || expanded.has(row.id);
              return [
                <Table.Tr key={row.id}>
                  {selectable ? (
                    <Table.Td>
                      <CheckboxChoice
                        name="ids"
                        value={row.id}
                        aria-label={t("transactions.select_row", { orderNo: row.orderNo })}
                        size="xs"
                      />
                    </Table.Td>
                  ) : null}
                  {data.columns.map((column, index) => (
                    <Table.Td
                      key={column.name}
                      dir={column.name === "customer_phone" || column.name === "amount" ? "ltr" : undefined}
                      style={
                        ONE_LINE.has(column.name)
                          ? { whiteSpace: "nowrap" }
                          : CLIPPED.has(column.name)
                            ? undefined
                            : { overflowWrap: "break-word" }
                      }
                      title={CLIPPED.has(column.name) ? row.cells[column.name] : undefined}
                    >
                      {column.name === "state" ? (
                        <>
                          <StateBadge state={row.state} />
                          {row.paidLate ? (
                            <Badge size="xs" color="orange" variant="outline" ms={4}>
                              {t(`details.paid_late.${row.paidLate}`)}
                            </Badge>
                          ) : null}
                        </>
                      ) : column.name === "order_no" ? (
                        <Anchor component={Link} to={detailPath(row.id, row.plugin)}>
                          {row.cells[column.name]}
                        </Anchor>
                      ) : CLIPPED.has(column.name) ? (
                        // Left to right whatever the page's direction, so the ellipsis cuts the end of an address, not its start.
                        <span dir="ltr" style={{ ...CLIP, textAlign: rtl ? "right" : "left" }}>
                          {row.cells[column.name]}
                        </span>
                      ) : (
                        row.cells[column.name]
                      )}
                      {/* The refunds, captures and voids open under the row from its state (else its first cell), never from the Actions cell. */}
                      {index === togglePlace && row.children.length > 0 && hydrated ? (
                        <Stack gap={0} mt={2}>
                          <Button
                            variant="subtle"
                            size="compact-xs"
                            px={0}
                            aria-expanded={open}
                            style={{ alignSelf: "flex-start" }}
                            onClick={() =>
                              setExpanded((current) => {
                                const next = new Set(current);
                                if (next.has(row.id)) next.delete(row.id);
                                else next.add(row.id);
                                return next;
                              })
                            }
                          >
                            {t("transactions.children", { count: row.children.length })}
                          </Button>
                        </Stack>
                      ) : null}
                    </Table.Td>
                  ))}
                  <Table.Td style={STICKY_END}>
                    <Group gap="xs" wrap="nowrap">
                      {!data.columns.some((column) => column.name === "order_no") ? (
                        <Anchor component={Link} to={detailPath(row.id, row.plugin)} size="sm">
                          {t("transactions.open")}
                        </Anchor>
                      ) : null}
                      <RowActions row={row} basePath={data.place.basePath} search={location.search} />
                    </Group>
                  </Table.Td>
                </Table.Tr>,
                ...(open
                  ? row.children.map((child) => (
                      <Table.Tr key={`${row.id}-${child.id}`} className="child-row">
                        {selectable ? <Table.Td /> : null}
                        <Table.Td colSpan={data.columns.length + 1}>
                          <Group gap="sm">
                            <Text size="sm">
                              {rtl ? "↲" : "↳"} {t(`operations.kind.${child.kind}`)}
                            </Text>
                            <Text size="sm" dir="ltr">
                              {child.amount}
                            </Text>
                            <Badge
                              size="sm"
                              variant="light"
                              color={
                                child.state === "succeeded" ? "green" : child.state === "failed" ? "red" : "orange"
                              }
                            >
                              {t(`operations.state.${child.state}`)}
                            </Badge>
                            <Text size="sm" c="dimmed">
                              {child.created} · {child.by}
                            </Text>
                            {child.message ? (
                              <Text size="sm" c="red">
                                {child.message}
                              </Text>
                            ) : null}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))
                  : []),
              ];
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Form>
  );
}
