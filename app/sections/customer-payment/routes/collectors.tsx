import { Anchor, Badge, Button, Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/collectors";
import { DataTable } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { CollectorNav } from "../components/collector-nav";
import { collectorUrl, listCollectors } from "../domain/collectors.server";
import { guardCollectorPage } from "../presentation/guard.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "صفحات التحصيل" : "Collector pages" }];
}

/** The merchant's collector pages: title, public link, payments, whether they take payments, posters. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCollectorPage(context, request, params, "collectors");
  const rows = await listCollectors(getDbFrom(context), auth.user.merchantId);
  return {
    lang,
    canChange,
    rows: rows.map((row) => ({
      id: row.id,
      title: lang === "ar" ? row.title_ar : row.title_en,
      link: collectorUrl(linkBaseUrl(), lang, row.public_id),
      payments: row.payments,
      paid: row.paid,
      active: Boolean(row.is_active),
    })),
  };
}

export default function Collectors() {
  const { t } = useTranslation();
  const { lang, canChange, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <PageHeader title={t("collectors.title")} description={t("collectors.intro")}>
        {canChange ? (
          <Button component={Link} to={`/${lang}/customer-payment/collectors/new`}>
            {t("collectors.new")}
          </Button>
        ) : null}
      </PageHeader>
      <CollectorNav lang={lang} current="collectors" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("collectors.empty")}
        minWidth={760}
        columns={[
          {
            key: "title",
            header: t("collectors.fields.title"),
            cell: (row) => (
              <Anchor component={Link} to={`/${lang}/customer-payment/collectors/${row.id}`} dir="auto">
                {row.title}
              </Anchor>
            ),
          },
          {
            key: "link",
            header: t("collectors.public_link"),
            cell: (row) => (
              <Anchor href={row.link} target="_blank" rel="noopener" dir="ltr" size="sm">
                {row.link}
              </Anchor>
            ),
          },
          {
            key: "payments",
            header: t("collectors.payments"),
            cell: (row) => (
              <Text size="sm">{t("collectors.payments_count", { paid: row.paid, total: row.payments })}</Text>
            ),
            nowrap: true,
          },
          {
            key: "active",
            header: t("collectors.fields.is_active"),
            cell: (row) =>
              row.active ? (
                <Badge color="green" variant="light">
                  {t("collectors.accepting")}
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  {t("collectors.inactive")}
                </Badge>
              ),
            nowrap: true,
          },
          {
            key: "poster",
            header: t("collectors.poster.title"),
            cell: (row) => (
              <Group gap="xs" wrap="nowrap">
                <Anchor href={`/${lang}/customer-payment/collectors/${row.id}/poster.pdf?language=en`} size="sm">
                  {t("collectors.poster.english")}
                </Anchor>
                <Anchor href={`/${lang}/customer-payment/collectors/${row.id}/poster.pdf?language=ar`} size="sm">
                  {t("collectors.poster.arabic")}
                </Anchor>
              </Group>
            ),
            nowrap: true,
          },
        ]}
      />
    </Stack>
  );
}
