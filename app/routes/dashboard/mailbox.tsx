import { Anchor, Badge, Card, Group, Pagination, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, useSearchParams } from "react-router";
import type { Route } from "./+types/mailbox";
import { PageHeader } from "~/components/page-header";
import { listMail } from "~/domain/messaging/mail.server";
import { listSms } from "~/domain/messaging/sms.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";

const PAGE_SIZE = 20;

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "صندوق البريد" : "Mailbox" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "view_outgoing_mail");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const page = Math.max(1, Math.min(10_000, Number(new URL(request.url).searchParams.get("page")) || 1));
  const db = getDbFrom(context);
  const { rows, count } = await listMail(db, auth.user.merchantId, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const sms = await listSms(db, auth.user.merchantId, { limit: PAGE_SIZE });
  return {
    sms: sms.map((row) => ({ ...row, created_at: formatDateTime(row.created_at, lang) })),
    page,
    pages: Math.max(1, Math.ceil(count / PAGE_SIZE)),
    mails: rows.map((row) => ({ ...row, created_at: formatDateTime(row.created_at, lang) })),
  };
}

export default function Mailbox() {
  const { t } = useTranslation();
  const { mails, page, pages, sms } = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  return (
    <Stack>
      <PageHeader title={t("mailbox.title")} description={t("mailbox.subtitle")} />
      <Card withBorder padding={0}>
        {mails.length === 0 ? (
          <Text p="lg" c="dimmed">
            {t("mailbox.empty")}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("mailbox.to")}</Table.Th>
                  <Table.Th>{t("mailbox.subject")}</Table.Th>
                  <Table.Th>{t("mailbox.status")}</Table.Th>
                  <Table.Th>{t("mailbox.date")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {mails.map((mail) => (
                  <Table.Tr key={mail.id}>
                    <Table.Td>{mail.to_address}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={String(mail.id)}>
                        {mail.subject}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={mail.status === "failed" ? "red" : "gray"}>
                        {t(`mailbox.statuses.${mail.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{mail.created_at}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {pages > 1 ? (
        <Group justify="center">
          <Pagination
            total={pages}
            value={page}
            onChange={(value) => setSearchParams({ page: String(value) })}
            getItemProps={(value) => ({ component: "a", href: `?page=${value}` })}
          />
        </Group>
      ) : null}
      <Title order={2} fz="h3" mt="lg">
        {t("mailbox.sms_title")}
      </Title>
      <Card withBorder padding={0}>
        {sms.length === 0 ? (
          <Text p="lg" c="dimmed">
            {t("mailbox.sms_empty")}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("mailbox.to")}</Table.Th>
                  <Table.Th>{t("mailbox.message")}</Table.Th>
                  <Table.Th>{t("mailbox.date")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sms.map((message) => (
                  <Table.Tr key={message.id}>
                    <Table.Td dir="ltr" style={{ whiteSpace: "nowrap" }}>{message.to_number}</Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{message.body}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{message.created_at}</Table.Td>
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
