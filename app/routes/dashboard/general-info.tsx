import { Alert, Card, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/general-info";
import { PageHeader } from "~/components/page-header";
import { can } from "~/domain/identity/permissions";
import { listAuditEntries } from "~/domain/reporting/audit-log.server";
import { requireUser } from "~/lib/guards.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/lib/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الرئيسية" : "Dashboard" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  // The merchant's whole activity is for those who see its statistics; everyone else sees their own.
  const merchantWide = can(auth.user, "view_paymenttransaction_statistics");
  const entries = await listAuditEntries(getDbFrom(context), auth.user.merchantId, {
    limit: 10,
    actorUserId: merchantWide ? undefined : auth.user.id,
  });
  return {
    username: auth.user.username,
    recentActions: entries.map((entry) => ({
      id: entry.id,
      actor: entry.actor_name,
      action: entry.action,
      description: entry.description,
      timestamp: formatDateTime(entry.created_at, lang),
    })),
  };
}

export default function GeneralInfo() {
  const { t, i18n } = useTranslation();
  const { username, recentActions } = useLoaderData<typeof loader>();
  return (
    <Stack>
      <PageHeader title={t("home.title", { username })} description={t("home.subtitle")} />
      <Alert variant="light" color="blue" title={t("home.statistics_title")}>
        {t("home.statistics_not_built")}
      </Alert>
      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="sm">
          {t("home.recent_actions")}
        </Title>
        {recentActions.length === 0 ? (
          <Text c="dimmed">{t("home.no_actions")}</Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("home.actor")}</Table.Th>
                  <Table.Th>{t("home.description")}</Table.Th>
                  <Table.Th>{t("home.timestamp")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {recentActions.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{entry.actor}</Table.Td>
                    <Table.Td>
                      {i18n.exists(`audit.${entry.action}`) ? t(`audit.${entry.action}`) : entry.description}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{entry.timestamp}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
