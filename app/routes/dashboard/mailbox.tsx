import { Anchor, Badge, Stack, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/mailbox";
import { DataTable, ListPagination } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { listMail } from "~/domain/messaging/mail.server";
import { listSms } from "~/domain/messaging/sms.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage, PAGE_NAMESPACES } from "~/lib/i18n";
import { usePageTexts } from "~/lib/page-texts";
import { pageTexts } from "~/lib/page-texts.server";
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
    lang,
    texts: pageTexts(lang, PAGE_NAMESPACES.mailbox),
    sms: sms.map((row) => ({ ...row, created_at: formatDateTime(row.created_at, lang) })),
    page,
    pages: Math.max(1, Math.ceil(count / PAGE_SIZE)),
    mails: rows.map((row) => ({ ...row, created_at: formatDateTime(row.created_at, lang) })),
  };
}

export default function Mailbox() {
  const { mails, page, pages, sms, lang, texts } = useLoaderData<typeof loader>();
  usePageTexts(lang, texts, "mailbox.title");
  const { t } = useTranslation();
  return (
    <Stack>
      <PageHeader title={t("mailbox.title")} description={t("mailbox.subtitle")} />
      <DataTable
        rows={mails}
        rowKey={(mail) => mail.id}
        empty={t("mailbox.empty")}
        minWidth={640}
        columns={[
          { key: "to", header: t("mailbox.to"), cell: (mail) => mail.to_address },
          {
            key: "subject",
            header: t("mailbox.subject"),
            cell: (mail) => (
              <Anchor component={Link} to={String(mail.id)}>
                {mail.subject}
              </Anchor>
            ),
          },
          {
            key: "status",
            header: t("mailbox.status"),
            cell: (mail) => (
              <Badge variant="light" color={mail.status === "failed" ? "red" : "gray"}>
                {t(`mailbox.statuses.${mail.status}`)}
              </Badge>
            ),
          },
          { key: "date", header: t("mailbox.date"), cell: (mail) => mail.created_at, nowrap: true },
        ]}
      />
      <ListPagination page={page} pages={pages} />
      <Title order={2} fz="h3" mt="lg">
        {t("mailbox.sms_title")}
      </Title>
      <DataTable
        rows={sms}
        rowKey={(message) => message.id}
        empty={t("mailbox.sms_empty")}
        minWidth={640}
        hover={false}
        columns={[
          {
            key: "to",
            header: t("mailbox.to"),
            cell: (message) => <span dir="ltr">{message.to_number}</span>,
            nowrap: true,
          },
          { key: "message", header: t("mailbox.message"), cell: (message) => message.body },
          { key: "date", header: t("mailbox.date"), cell: (message) => message.created_at, nowrap: true },
        ]}
      />
    </Stack>
  );
}
