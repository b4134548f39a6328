import { Anchor, Badge, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/events";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { can } from "~/domain/identity/permissions";
import { listMerchantEvents } from "~/sections/event/domain/events.server";
import { formatCount } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الفعاليات" : "Events" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "event", "bookings");
  requirePermission(auth, "view_booking");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const q = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  const rows = await listMerchantEvents(getDbFrom(context), auth.user.merchantId, { q: q || undefined });
  return {
    lang,
    q,
    canChange: can(auth.user, "change_booking"),
    rows: rows.map((row) => ({
      id: row.id,
      title: lang === "ar" ? row.title_ar : row.title_en,
      slug: row.slug,
      status: row.status,
      dates: row.first_date
        ? row.first_date === row.last_date
          ? row.first_date
          : `${row.first_date} – ${row.last_date}`
        : null,
      places: `${formatCount(row.taken, lang)} / ${formatCount(row.total, lang)}`,
      sold: formatCount(Math.max(0, row.taken - row.held), lang),
      held: formatCount(row.held, lang),
    })),
  };
}

const STATUS_COLORS = { draft: "gray", published: "green", closed: "red" } as const;

export default function Events() {
  const { t } = useTranslation();
  const { lang, q, canChange, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("event_setup.list_title")} description={t("event_setup.list_description")}>
        {canChange ? (
          <Button component={Link} to={`/${lang}/event/events/new`}>
            {t("event_setup.new_event")}
          </Button>
        ) : null}
      </PageHeader>
      <Form method="get" role="search">
        <Group align="flex-end">
          <TextInput name="q" defaultValue={q} label={t("event_setup.search")} type="search" maw={360} w="100%" />
          <Button type="submit" variant="default">
            {t("event_setup.search_button")}
          </Button>
        </Group>
      </Form>
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("event_setup.empty")}
        minWidth={760}
        columns={[
          {
            key: "title",
            header: t("event_setup.columns.title"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/event/events/${row.id}`}>
                {row.title}
              </Anchor>
            ),
          },
          { key: "slug", header: t("event_setup.columns.slug"), cell: (row) => <span dir="ltr">{row.slug}</span> },
          {
            key: "status",
            header: t("event_setup.columns.status"),
            cell: (row) => (
              <Badge color={STATUS_COLORS[row.status]} variant="light">
                {t(`event_setup.statuses.${row.status}`)}
              </Badge>
            ),
            nowrap: true,
          },
          {
            key: "dates",
            header: t("event_setup.columns.dates"),
            cell: (row) => <span dir="ltr">{row.dates ?? t("event_setup.no_dates")}</span>,
            nowrap: true,
          },
          {
            key: "places",
            header: t("event_setup.columns.places"),
            cell: (row) => (
              <Stack gap={0}>
                <span dir="ltr">{row.places}</span>
                <Text span size="xs" c="dimmed">
                  {t("event_setup.sold_held", { sold: row.sold, held: row.held })}
                </Text>
              </Stack>
            ),
            nowrap: true,
          },
        ]}
      />
    </Stack>
  );
}
