import { Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/audit";
import { DataTable, ListPagination, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import {
  AUDIT_PAGE_SIZE,
  auditFilterSearch,
  listAuditActors,
  listAuditPage,
  readAuditQuery,
  type AuditQuery,
} from "~/domain/audit/audit-viewer.server";
import { formatCount, formatDateTime } from "~/lib/format";
import { isLanguage, type Language } from "~/lib/i18n";
import { auditActionTitles as actionTitles, auditActor, describeAuditEntry } from "~/presentation/audit.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

type Choice = { value: string; label: string };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "سجل التدقيق" : "Audit log" }];
}

/** The action filter's choices by title; a code from the query string that is not among them (an older entry's) stays selectable as it is. */
function actionChoices(titles: Map<string, string>, lang: Language, selected: string | undefined): Choice[] {
  const choices = [...titles].map(([value, label]) => ({ value, label }));
  if (selected && !titles.has(selected)) choices.push({ value: selected, label: selected });
  return choices.sort((a, b) => a.label.localeCompare(b.label, lang));
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const merchantId = auth.user.merchantId;
  const query = await readAuditQuery(db, merchantId, new URL(request.url).searchParams);
  const [page, actors] = await Promise.all([
    listAuditPage(db, merchantId, query.filters, query.page),
    listAuditActors(db, merchantId, query.filters.actorUserId),
  ]);
  const first = (page.page - 1) * AUDIT_PAGE_SIZE + 1;
  const titles = actionTitles(lang);
  return {
    raw: query.raw,
    errors: query.errors,
    users: actors.map((actor) => ({ value: String(actor.id), label: actor.username })),
    actions: actionChoices(titles, lang, query.filters.action),
    exportHref: `/${lang}/admin/audit/export.csv${auditFilterSearch(query)}`,
    page: page.page,
    pages: page.pageCount,
    range: page.count
      ? {
          from: formatCount(first, lang),
          to: formatCount(first + page.rows.length - 1, lang),
          count: formatCount(page.count, lang),
        }
      : null,
    entries: page.rows.map((entry) => ({
      id: entry.id,
      at: formatDateTime(entry.created_at, lang),
      actor: auditActor(entry, lang),
      // An older entry's code without a title is shown as the code, not as its text a second time.
      title: titles.get(entry.action) ?? entry.action,
      text: describeAuditEntry(entry, lang),
      ip: entry.ip,
    })),
  };
}

export default function AuditLogPage() {
  const { t } = useTranslation();
  const { raw, errors, users, actions, exportHref, page, pages, range, entries } = useLoaderData<typeof loader>();
  type Entry = (typeof entries)[number];
  const columns: DataColumn<Entry>[] = [
    { key: "time", header: t("admin.audit.columns.time"), nowrap: true, cell: (entry) => entry.at },
    { key: "user", header: t("admin.audit.columns.user"), cell: (entry) => <bdi>{entry.actor}</bdi> },
    { key: "action", header: t("admin.audit.columns.action"), cell: (entry) => entry.title },
    { key: "text", header: t("admin.audit.columns.text"), cell: (entry) => entry.text },
    {
      key: "ip",
      header: t("admin.audit.columns.ip"),
      nowrap: true,
      cell: (entry) => (entry.ip ? <bdi dir="ltr">{entry.ip}</bdi> : "—"),
    },
  ];
  return (
    <Stack maw={1200}>
      <PageHeader title={t("admin.audit.title")} description={t("admin.audit.subtitle")}>
        <Button component="a" href={exportHref} variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
          {t("admin.audit.export")}
        </Button>
      </PageHeader>
      <AuditFilterForm raw={raw} errors={errors} users={users} actions={actions} />
      <DataTable
        rows={entries}
        rowKey={(entry) => entry.id}
        empty={t("admin.audit.empty")}
        minWidth={900}
        hover={false}
        columns={columns}
      />
      <ListPagination page={page} pages={pages} count={range ? t("admin.audit.range", range) : undefined} />
      <Text size="sm" c="dimmed">
        {t("admin.audit.note")}
      </Text>
    </Stack>
  );
}

/** The filters as a GET form: every value lands in the query string, with or without JavaScript. */
function AuditFilterForm({
  raw,
  errors,
  users,
  actions,
}: {
  raw: AuditQuery["raw"];
  errors: AuditQuery["errors"];
  users: Choice[];
  actions: Choice[];
}) {
  const { t } = useTranslation();
  const errorOf = (name: keyof AuditQuery["errors"]) => (errors[name] ? t(errors[name]) : undefined);
  const date = (name: "created_after" | "created_before", label: string) => (
    <TextInput
      type="date"
      name={name}
      label={label}
      defaultValue={raw[name] ?? ""}
      error={errorOf(name)}
      errorProps={{ role: "alert" }}
      aria-invalid={errors[name] ? true : undefined}
    />
  );
  const select = (name: "user" | "action", label: string, any: string, options: Choice[]) => (
    <NativeSelect
      name={name}
      label={label}
      defaultValue={errors[name] ? "" : (raw[name] ?? "")}
      data={[{ value: "", label: any }, ...options]}
      error={errorOf(name)}
      errorProps={{ role: "alert" }}
      aria-invalid={errors[name] ? true : undefined}
    />
  );
  return (
    <Card withBorder padding="md">
      <Form method="get" role="search" aria-label={t("admin.audit.filters")}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {select("user", t("admin.audit.columns.user"), t("admin.audit.any_user"), users)}
          {select("action", t("admin.audit.columns.action"), t("admin.audit.any_action"), actions)}
          {date("created_after", t("admin.audit.from"))}
          {date("created_before", t("admin.audit.to"))}
        </SimpleGrid>
        <Group mt="sm" gap="sm">
          <Button type="submit">{t("admin.audit.apply")}</Button>
          <Button component={Link} to="?" variant="subtle">
            {t("admin.audit.clear")}
          </Button>
        </Group>
      </Form>
    </Card>
  );
}
