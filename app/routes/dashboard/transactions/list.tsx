import { Alert, Anchor, Badge, Button, Card, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData, useLocation, useSubmit } from "react-router";
import type { Route } from "./+types/list";
import { PageHeader } from "~/components/page-header";
import { StateBadge } from "~/components/state-badge";
import { ExportPopover } from "~/components/transactions/export-popover";
import { withParams } from "~/domain/transactions/filters";
import { ConfirmDialog, DoneDialog, OperationDialog, type DialogResult } from "~/components/transactions/dialogs";
import { RowActionsMenu } from "~/components/transactions/row-actions-menu";
import { listAction, loadList, type ListNotice } from "./list.server";

export const loader = (args: Route.LoaderArgs) => loadList(args);
export const action = (args: Route.ActionArgs) => listAction(args);

type LoaderData = Awaited<ReturnType<typeof loadList>>;
type ActionData = ListNotice | DialogResult | undefined;

const FILTER_NAMES = [
  "created_after",
  "created_before",
  "state_changed_at_after",
  "state_changed_at_before",
  "state",
  "gateway_code",
  "currency_code",
  "initiator",
  "unit",
  "seen",
  "email_seen",
  "disclosed_to_merchant",
  "product_type",
  "bulk",
];

function rawValue(raw: LoaderData["raw"], name: string): string {
  const value = raw[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function rawValues(raw: LoaderData["raw"], name: string): string[] {
  const value = raw[name];
  return (Array.isArray(value) ? value : value ? [value] : []).flatMap((entry) => entry.split(","));
}

/** Hidden inputs that keep the rest of the view (filters, page size) when one form changes one part. */
function KeepParams({ raw, except }: { raw: LoaderData["raw"]; except: string[] }) {
  return (
    <>
      {Object.entries(raw)
        .filter(([name]) => !except.includes(name) && !["page", "operation", "confirm", "id", "done"].includes(name))
        .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((entry, index) => <input key={`${name}-${index}`} type="hidden" name={name} value={entry} />))}
    </>
  );
}

function StatisticsStrip({ statistics }: { statistics: NonNullable<LoaderData["statistics"]> }) {
  const { t } = useTranslation();
  const items = [
    ["generated", statistics.generated],
    ["received", statistics.received],
    ["balance", statistics.balance],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md" aria-label={t("transactions.statistics")} component="section">
      {items.map(([key, values]) => (
        <Card key={key} withBorder padding="md">
          <Text size="sm" c="dimmed">
            {t(`transactions.stats.${key}`)}
          </Text>
          {values.length === 0 ? (
            <Text fw={700}>—</Text>
          ) : (
            values.map((value) => (
              <Text key={value.currency} fw={700} fz="lg" dir="ltr" ta="start">
                {value.text}
              </Text>
            ))
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}

function SearchBox({ raw }: { raw: LoaderData["raw"] }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const initial = rawValue(raw, "q");
  return (
    <Form method="get" ref={formRef} role="search">
      <KeepParams raw={raw} except={["q"]} />
      <TextInput
        name="q"
        type="search"
        defaultValue={initial}
        label={t("transactions.search")}
        placeholder={t("transactions.search_placeholder")}
        maxLength={100}
        w={{ base: "100%", sm: 340 }}
        onBlur={(event) => {
          if (event.currentTarget.value !== initial) submit(formRef.current);
        }}
      />
    </Form>
  );
}

function FilterPanel({ data }: { data: LoaderData }) {
  const { t } = useTranslation();
  const { raw, errors, choices } = data;
  const open = FILTER_NAMES.some((name) => raw[name] !== undefined) || Object.keys(errors).length > 0;
  const flag = (name: string) => (
    <NativeSelect
      name={name}
      label={t(`transactions.filters.${name}`)}
      defaultValue={rawValue(raw, name)}
      data={[
        { value: "", label: t("transactions.filters.any") },
        { value: "true", label: t("transactions.filters.yes") },
        { value: "false", label: t("transactions.filters.no") },
      ]}
    />
  );
  const dateRange = (prefix: "created" | "state_changed_at") => (
    <Group grow align="flex-start">
      <TextInput type="date" name={`${prefix}_after`} label={`${t(`transactions.filters.${prefix}`)} — ${t("transactions.filters.from")}`} defaultValue={rawValue(raw, `${prefix}_after`).slice(0, 10)} error={errors[`${prefix}_after`] ? t(errors[`${prefix}_after`]) : undefined} />
      <TextInput type="date" name={`${prefix}_before`} label={`${t(`transactions.filters.${prefix}`)} — ${t("transactions.filters.to")}`} defaultValue={rawValue(raw, `${prefix}_before`).slice(0, 10)} error={errors[`${prefix}_before`] ? t(errors[`${prefix}_before`]) : undefined} />
    </Group>
  );
  const checks = (name: string, options: { value: string; label: string }[]) => (
    <fieldset className="filter-fieldset">
      <legend>{t(`transactions.filters.${name}`)}</legend>
      <Group gap="xs">
        {options.map((option) => (
          <Checkbox key={option.value} name={name} value={option.value} label={option.label} defaultChecked={rawValues(raw, name).includes(option.value)} size="xs" />
        ))}
      </Group>
    </fieldset>
  );
  return (
    <details className="filter-panel" open={open}>
      <summary>
        <Text component="span" fw={600}>
          {t("transactions.filters.title")}
        </Text>
      </summary>
      <Paper withBorder p="md" mt="xs">
        <Form method="get">
          <KeepParams raw={raw} except={FILTER_NAMES} />
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {dateRange("created")}
              {dateRange("state_changed_at")}
            </SimpleGrid>
            {checks("state", choices.states)}
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
              {checks("gateway_code", choices.gateways)}
              {checks("currency_code", choices.currencies.map((code) => ({ value: code, label: code })))}
              <NativeSelect name="initiator" label={t("transactions.filters.initiator")} defaultValue={rawValue(raw, "initiator")} data={[{ value: "", label: t("transactions.filters.any") }, ...choices.users]} />
              <NativeSelect name="unit" label={t("transactions.filters.unit")} defaultValue={rawValue(raw, "unit")} data={[{ value: "", label: t("transactions.filters.any") }, ...choices.units]} />
              {flag("seen")}
              {flag("email_seen")}
              {flag("disclosed_to_merchant")}
              <TextInput name="product_type" label={t("transactions.filters.product_type")} defaultValue={rawValue(raw, "product_type")} maxLength={64} />
              <TextInput name="bulk" label={t("transactions.filters.bulk")} defaultValue={rawValue(raw, "bulk")} inputMode="numeric" pattern="[0-9]*" maxLength={9} />
            </SimpleGrid>
            <Group>
              <Button type="submit">{t("transactions.filters.apply")}</Button>
              <Anchor component={Link} to={`${data.place.basePath}${rawValue(raw, "q") ? `?q=${encodeURIComponent(rawValue(raw, "q"))}` : ""}`}>
                {t("transactions.filters.clear")}
              </Anchor>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </details>
  );
}

function PerPage({ data }: { data: LoaderData }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const { count, perPage } = data.pagination;
  const sizes = [10, 50, 100].filter((size, index) => index === 0 || count > [10, 50, 100][index - 1]);
  const options: (number | "all")[] = [...sizes, ...(count > 10 && count <= 1000 ? (["all"] as const) : [])];
  if (options.length < 2) return null;
  return (
    <Form method="get" onChange={(event) => submit(event.currentTarget)}>
      <KeepParams raw={data.raw} except={["per_page"]} />
      <fieldset className="inline-radio">
        <legend>{t("transactions.rows_per_page")}</legend>
        {options.map((size) => (
          <label key={size}>
            <input type="radio" name="per_page" value={size} defaultChecked={perPage === size} /> {size === "all" ? t("transactions.all_rows") : size}
          </label>
        ))}
        <noscript>
          <button type="submit">{t("transactions.show")}</button>
        </noscript>
      </fieldset>
    </Form>
  );
}

function Pagination({ data }: { data: LoaderData }) {
  const { t, i18n } = useTranslation();
  const [back, forward] = i18n.dir() === "rtl" ? ["›", "‹"] : ["‹", "›"];
  const location = useLocation();
  const { page, pageCount } = data.pagination;
  if (pageCount <= 1) return null;
  const first = Math.max(1, Math.min(page - 4, pageCount - 9));
  const pages = Array.from({ length: Math.min(10, pageCount) }, (_, index) => first + index);
  const href = (target: number) => `${location.pathname}${withParams(location.search, { page: target === 1 ? null : target, done: null, operation: null, confirm: null, id: null })}`;
  return (
    <nav aria-label={t("transactions.pagination")}>
      <Group gap={4} mt="md">
        {page > 1 ? (
          <Anchor component={Link} to={href(page - 1)} className="page-link" aria-label={t("transactions.previous_page")}>
            {back}
          </Anchor>
        ) : null}
        {pages.map((number) => (
          <Anchor key={number} component={Link} to={href(number)} className="page-link" aria-current={number === page ? "page" : undefined} data-current={number === page || undefined}>
            {number}
          </Anchor>
        ))}
        {page < pageCount ? (
          <Anchor component={Link} to={href(page + 1)} className="page-link" aria-label={t("transactions.next_page")}>
            {forward}
          </Anchor>
        ) : null}
      </Group>
    </nav>
  );
}

function RowActions({ row, basePath, search }: { row: LoaderData["rows"][number]; basePath: string; search: string }) {
  const items = row.actions.map((action) => {
    const dialog = action.value === "refund" || action.value === "capture" || action.value === "void" ? "operation" : "confirm";
    return {
      value: action.value,
      label: action.display_name,
      to: `${basePath}${withParams(search, { operation: null, confirm: null, [dialog]: action.value, id: row.id, done: null })}`,
    };
  });
  return <RowActionsMenu orderNo={row.orderNo} items={items} />;
}

export default function TransactionList() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData;
  const location = useLocation();
  const [hydrated, setHydrated] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  useEffect(() => setHydrated(true), []);
  const notice = result && "color" in result ? result : null;
  const selectable = data.bulkActions.length > 0;
  const orderNoOf = new Map(data.rows.map((row) => [row.id, row.orderNo]));
  const detailPath = (id: string, plugin: string) => `${data.place.basePath}/${id}?type=${plugin}`;
  return (
    <Stack gap="md">
      <PageHeader title={t(data.titleKey)} description={data.place.sectionKey !== "all" ? t(`sections.${data.place.sectionKey}`) : undefined}>
        <Group gap="sm">
          {data.exportConfig ? (
            <ExportPopover section={data.place.sectionKey} query={location.search} config={data.exportConfig} lang={location.pathname.split("/")[1] === "ar" ? "ar" : "en"} />
          ) : null}
          {data.canEditHeaders && data.place.sectionPath ? (
            <Anchor component={Link} to={`/${location.pathname.split("/")[1]}/${data.place.sectionPath}/table-headers`}>
              {t("transactions.table_headers")}
            </Anchor>
          ) : null}
        </Group>
      </PageHeader>
      {data.statistics ? <StatisticsStrip statistics={data.statistics} /> : null}
      {notice ? (
        <Alert color={notice.color} role={notice.color === "red" ? "alert" : "status"} variant="light">
          {notice.message}
          {notice.results && notice.color === "orange" ? (
            <ul>
              {notice.results.filter((entry) => !entry.ok).map((entry) => (
                <li key={entry.id}>
                  {orderNoOf.has(entry.id) ? t("transactions.partial_row", { orderNo: orderNoOf.get(entry.id), message: entry.message }) : entry.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      {data.canSearch ? (
        <Stack gap="xs">
          <SearchBox raw={data.raw} />
          <FilterPanel data={data} />
        </Stack>
      ) : null}
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed" role="status">
          {t("transactions.count", { total: data.pagination.countText })}
        </Text>
        <PerPage data={data} />
      </Group>
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
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                {selectable ? (
                  <Table.Th w={36}>
                    <span className="visually-hidden">{t("transactions.select")}</span>
                  </Table.Th>
                ) : null}
                {data.columns.map((column) => (
                  <Table.Th key={column.name}>{column.label}</Table.Th>
                ))}
                <Table.Th>{t("transactions.actions")}</Table.Th>
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
                        <Checkbox name="ids" value={row.id} aria-label={t("transactions.select_row", { orderNo: row.orderNo })} size="xs" />
                      </Table.Td>
                    ) : null}
                    {data.columns.map((column) => (
                      <Table.Td key={column.name} dir={column.name === "customer_phone" || column.name === "amount" ? "ltr" : undefined}>
                        {column.name === "state" ? (
                          <StateBadge state={row.state} />
                        ) : column.name === "order_no" ? (
                          <Anchor component={Link} to={detailPath(row.id, row.plugin)}>
                            {row.cells[column.name]}
                          </Anchor>
                        ) : (
                          row.cells[column.name]
                        )}
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {!data.columns.some((column) => column.name === "order_no") ? (
                          <Anchor component={Link} to={detailPath(row.id, row.plugin)} size="sm">
                            {t("transactions.open")}
                          </Anchor>
                        ) : null}
                        {row.children.length > 0 && hydrated ? (
                          <Button
                            variant="subtle"
                            size="compact-xs"
                            aria-expanded={open}
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
                              <Text size="sm">↳ {t(`operations.kind.${child.kind}`)}</Text>
                              <Text size="sm" dir="ltr">
                                {child.amount}
                              </Text>
                              <Badge size="sm" variant="light" color={child.state === "succeeded" ? "green" : child.state === "failed" ? "red" : "orange"}>
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
      <Pagination data={data} />
      {data.dialog ? <OperationDialog dialog={data.dialog} result={result} /> : null}
      {data.done ? <DoneDialog done={data.done} /> : null}
      {data.confirm && !notice ? <ConfirmDialog confirm={data.confirm} /> : null}
    </Stack>
  );
}
