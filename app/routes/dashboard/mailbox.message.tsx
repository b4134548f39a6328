import { Anchor, Card, Group, Stack, Text, Title } from "@mantine/core";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/mailbox.message";
import { attachmentsOf, getMail } from "~/domain/messaging/mail.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage, PAGE_NAMESPACES } from "~/lib/i18n";
import { usePageTexts } from "~/lib/page-texts";
import { pageTexts } from "~/lib/page-texts.server";
import { getDbFrom } from "~/web/request-context.server";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "view_outgoing_mail");
  const id = Number(params.mailId);
  if (!Number.isSafeInteger(id) || id < 1) notFound();
  const mail = await getMail(getDbFrom(context), auth.user.merchantId, id);
  if (!mail) notFound();
  const lang = isLanguage(params.lang) ? params.lang : "en";
  // The files it carries are made when downloaded, as when the mail is sent.
  const attachments = attachmentsOf(mail.attachments).map((attachment, index) => ({
    filename: attachment.filename,
    url: `/${lang}/mailbox/${mail.id}/attachments/${index}`,
  }));
  return {
    ...mail,
    attachments,
    created_at: formatDateTime(mail.created_at, lang),
    pageLang: lang,
    texts: pageTexts(lang, PAGE_NAMESPACES.mailbox),
  };
}

const urlPattern = /(https?:\/\/[^\s]+)/g;

/** The plain-text part; links in it become clickable, nothing else is interpreted. */
function LinkifiedText({ text }: { text: string }) {
  return (
    <Text component="pre" style={{ whiteSpace: "pre-wrap", fontFamily: "inherit", margin: 0 }}>
      {text.split(urlPattern).map((part, index) =>
        index % 2 === 1 ? (
          <Anchor key={index} href={part}>
            {part}
          </Anchor>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </Text>
  );
}

/**
 * The HTML part as the customer's mail reader shows it, in a sandbox: no script runs, nothing in it
 * reaches this page, and its links open in a new tab.
 */
function HtmlPart({ html, title }: { html: string; title: string }) {
  const framed = html.replace("<head>", '<head><base target="_blank">');
  return (
    <iframe
      title={title}
      srcDoc={framed}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      style={{ width: "100%", height: 640, border: 0, background: "#f1f3f5" }}
    />
  );
}

export default function MailboxMessage() {
  const mail = useLoaderData<typeof loader>();
  usePageTexts(mail.pageLang, mail.texts, "mailbox.title");
  const { t } = useTranslation();
  return (
    <Stack maw={760}>
      <Anchor component={Link} to=".." relative="path">
        {t("mailbox.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Title order={1} fz="h3">
            {mail.subject}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t("mailbox.to")}:
            </Text>
            <Text size="sm">{mail.to_address}</Text>
          </Group>
          {mail.reply_to ? (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {t("mailbox.reply_to")}:
              </Text>
              <Text size="sm">{mail.reply_to}</Text>
            </Group>
          ) : null}
          <Text size="sm" c="dimmed">
            {mail.created_at}
          </Text>
          {mail.html_body ? (
            <>
              <Title order={2} fz="h5" mt="sm">
                {t("mailbox.html_part")}
              </Title>
              <Card withBorder padding={0}>
                <HtmlPart html={mail.html_body} title={mail.subject} />
              </Card>
              <Title order={2} fz="h5" mt="sm">
                {t("mailbox.text_part")}
              </Title>
            </>
          ) : null}
          <Card withBorder bg="gray.0" mt={mail.html_body ? 0 : "sm"}>
            <LinkifiedText text={mail.text_body} />
          </Card>
          {mail.attachments.length > 0 ? (
            <>
              <Title order={2} fz="h5" mt="sm">
                {t("mailbox.attachments")}
              </Title>
              <Stack gap={4} component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
                {mail.attachments.map((attachment) => (
                  <li key={attachment.url}>
                    <Anchor href={attachment.url} download={attachment.filename}>
                      {attachment.filename}
                    </Anchor>
                  </li>
                ))}
              </Stack>
            </>
          ) : null}
        </Stack>
      </Card>
    </Stack>
  );
}
