import { Anchor, Badge, Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/notifications";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { listNotificationTemplates } from "~/domain/messaging/notification-templates.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "قوالب الإشعارات" : "Notification templates" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  return { templates: await listNotificationTemplates(getDbFrom(context), auth.user.merchantId) };
}

export default function NotificationTemplatesPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { templates } = useLoaderData<typeof loader>();
  type Template = (typeof templates)[number];
  const columns: DataColumn<Template>[] = [
    {
      key: "template",
      header: t("admin.templates.message"),
      cell: (row) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {t(`admin.templates.names.${row.template}`, { defaultValue: row.template })}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`admin.templates.descriptions.${row.template}_${row.channel}`, { defaultValue: "" })}
          </Text>
        </Stack>
      ),
    },
    {
      key: "channel",
      header: t("admin.templates.channel"),
      nowrap: true,
      cell: (row) => t(`admin.templates.channel_labels.${row.channel}`),
    },
    {
      key: "audience",
      header: t("admin.templates.audience"),
      nowrap: true,
      cell: (row) => t(`admin.templates.audiences.${row.audience}`),
    },
    {
      key: "languages",
      header: t("admin.templates.languages_column"),
      nowrap: true,
      cell: (row) => (
        <Stack gap={4}>
          {row.languages.map((language) => (
            <Group key={language.lang} gap="xs" wrap="nowrap">
              <Anchor
                component={Link}
                to={`/${params.lang}/admin/notifications/${row.template}/${row.channel}/${language.lang}`}
                size="sm"
                aria-label={t("admin.templates.edit_in", {
                  name: t(`admin.templates.names.${row.template}`, { defaultValue: row.template }),
                  channel: t(`admin.templates.channel_labels.${row.channel}`),
                  language: t(`admin.templates.languages.${language.lang}`),
                })}
              >
                {t(`admin.templates.languages.${language.lang}`)}
              </Anchor>
              <Badge size="sm" variant="light" color={language.customised ? "blue" : "gray"}>
                {t(language.customised ? "admin.templates.customised" : "admin.templates.default")}
              </Badge>
            </Group>
          ))}
        </Stack>
      ),
    },
  ];
  return (
    <Stack maw={1100}>
      <PageHeader title={t("admin.templates.title")} description={t("admin.templates.subtitle")} />
      <DataTable
        rows={templates}
        rowKey={(row) => `${row.template}/${row.channel}`}
        empty={t("admin.templates.none")}
        minWidth={720}
        hover={false}
        columns={columns}
      />
    </Stack>
  );
}
