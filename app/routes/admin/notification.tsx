import { Anchor, Badge, Button, Card, Code, Group, Stack, Table, Text, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/notification";
import { Callout } from "~/components/callout";
import { MessagePreview, type MessagePreviewData } from "~/components/admin/message-preview";
import { PageHeader } from "~/components/page-header";
import {
  checkWording,
  findEditableTemplate,
  loadNotificationTemplate,
  previewNotificationTemplate,
  mayWord,
  resetNotificationTemplate,
  saveNotificationTemplate,
  type TemplateErrors,
  type TemplateKey,
} from "~/domain/messaging/notification-templates.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage, otherLanguage, type Language } from "~/lib/i18n";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "قالب إشعار" : "Notification template" }];
}

/** The message the address names, or 404 for one nobody may word. */
function keyOf(params: Route.LoaderArgs["params"]): TemplateKey {
  const { template, channel, templateLang } = params;
  if (
    !isLanguage(templateLang) ||
    (channel !== "mail" && channel !== "sms") ||
    !findEditableTemplate(template, channel)
  )
    notFound();
  return { template, channel, lang: templateLang };
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const key = keyOf(params);
  const db = getDbFrom(context);
  const view = await loadNotificationTemplate(db, auth.user.merchantId, key);
  if (!view) notFound();
  const preview = await previewNotificationTemplate(db, {
    merchantId: auth.user.merchantId,
    viewer: auth.user,
    key,
    baseUrl: linkBaseUrl(),
  });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  return { view, preview, updated: view.updated_at ? formatDateTime(view.updated_at, lang) : null };
}

type ActionResult = { errors?: TemplateErrors; values?: Record<string, string>; preview?: MessagePreviewData };

/** `intent`: save (every part; blank keeps the default), preview (what was typed, not saved) or reset. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const key = keyOf(params);
  const entry = findEditableTemplate(key.template, key.channel)!;
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const manager = managerOf(auth.user);
  const ip = context.get(clientAddressContext);
  const here = `/${params.lang}/admin/notifications/${key.template}/${key.channel}/${key.lang}`;
  const done = (message: string) =>
    redirect(here, { headers: { "Set-Cookie": flashCookie({ kind: "success", message }) } });
  const values = Object.fromEntries(entry.parts.map((part) => [part, String(form.get(part) ?? "")]));
  const intent = String(form.get("intent") ?? "");
  if ((intent === "save" || intent === "reset") && !mayWord(auth.user, entry)) {
    return data<ActionResult>(
      { errors: { non_field_errors: [{ code: "admin.templates.errors.staff_superuser" }] }, values },
      { status: 403 },
    );
  }
  if (intent === "save") {
    const saved = await saveNotificationTemplate(db, { manager, key, wording: values, ip });
    if (!saved.ok) return data<ActionResult>({ errors: saved.errors, values }, { status: 400 });
    return done(saved.changed ? "admin.templates.saved" : "admin.templates.unchanged");
  }
  if (intent === "preview") {
    const checked = checkWording(entry, key.lang, values);
    if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
    const preview = await previewNotificationTemplate(db, {
      merchantId: manager.merchantId,
      viewer: manager,
      key,
      wording: checked.wording,
      baseUrl: linkBaseUrl(),
    });
    return data<ActionResult>({ values, preview });
  }
  if (intent === "reset") {
    await resetNotificationTemplate(db, { manager, key, ip });
    return done("admin.templates.reset_done");
  }
  return data<ActionResult>(
    { errors: { non_field_errors: [{ code: "admin.templates.errors.unknown_intent" }] } },
    { status: 400 },
  );
}

const MULTI_LINE = new Set(["intro", "outro", "body"]);
const MAX_LENGTH: Record<string, number> = {
  subject: 200,
  heading: 200,
  action: 60,
  intro: 4000,
  outro: 4000,
  body: 480,
};

export default function NotificationTemplatePage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { view, preview, updated } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const error = (field: string) =>
    errors[field]?.map((refusal) => t(refusal.code, refusal.params)).join(" ") || undefined;
  const lang = view.lang as Language;
  const name = t(`admin.templates.names.${view.template}`, { defaultValue: view.template });
  const base = `/${params.lang}/admin/notifications`;
  return (
    <Stack maw={900}>
      <Anchor component={Link} to={base} size="sm">
        {t("admin.templates.back")}
      </Anchor>
      <PageHeader
        title={name}
        description={[
          t(`admin.templates.channel_labels.${view.channel}`),
          t(`admin.templates.languages.${lang}`),
          t(`admin.templates.audiences.${view.audience}`),
        ].join(" · ")}
      />
      <Group gap="sm">
        <Badge variant="light" color={view.customised ? "blue" : "gray"}>
          {t(view.customised ? "admin.templates.customised" : "admin.templates.default")}
        </Badge>
        {updated ? (
          <Text size="sm" c="dimmed">
            {t("admin.templates.changed_by", { username: view.updated_by ?? "—", date: updated })}
          </Text>
        ) : null}
        <Anchor component={Link} to={`${base}/${view.template}/${view.channel}/${otherLanguage(lang)}`} size="sm">
          {t("admin.templates.other_language", { language: t(`admin.templates.languages.${otherLanguage(lang)}`) })}
        </Anchor>
      </Group>
      {errors.non_field_errors ? (
        <Callout color="red" role="alert">
          {error("non_field_errors")}
        </Callout>
      ) : null}
      <Card withBorder padding="lg">
        <Form method="post" key={view.updated_at ?? "default"}>
          <Stack>
            <Text size="sm" c="dimmed">
              {t("admin.templates.blank_keeps_default")}
            </Text>
            {view.parts.map((part) => {
              const props = {
                name: part,
                label: t(`admin.templates.parts.${part}`),
                defaultValue: result?.values?.[part] ?? view.wording[part] ?? view.defaults[part],
                error: error(part),
                maxLength: MAX_LENGTH[part],
                lang,
                dir: lang === "ar" ? "rtl" : "ltr",
              } as const;
              return MULTI_LINE.has(part) ? (
                <Textarea
                  key={part}
                  {...props}
                  rows={part === "body" ? 4 : 6}
                  description={t(part === "body" ? "admin.templates.sms_hint" : "admin.templates.paragraphs_hint")}
                />
              ) : (
                <TextInput key={part} {...props} />
              );
            })}
            <Group>
              <Button type="submit" name="intent" value="save" disabled={busy}>
                {t("admin.templates.save")}
              </Button>
              <Button type="submit" name="intent" value="preview" variant="default" disabled={busy}>
                {t("admin.templates.preview_action")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Placeholders names={view.placeholders} essential={view.essential} />
      <MessagePreview preview={result?.preview ?? preview} unsaved={Boolean(result?.preview)} lang={lang} />
      {view.customised ? (
        <details>
          <summary className="link-summary">{t("admin.templates.reset")}</summary>
          <Form method="post">
            <Text size="sm" my={6}>
              {t("admin.templates.reset_confirm", { language: t(`admin.templates.languages.${lang}`) })}
            </Text>
            <Button type="submit" name="intent" value="reset" size="xs" color="red" disabled={busy}>
              {t("admin.templates.reset_now")}
            </Button>
          </Form>
        </details>
      ) : null}
    </Stack>
  );
}

/** The placeholders the message's words may use, each with what it stands for. */
function Placeholders({ names, essential }: { names: string[]; essential: string[] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Text fw={600} component="h2" size="lg">
          {t("admin.templates.placeholders_title")}
        </Text>
        {names.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("admin.templates.no_placeholders")}
          </Text>
        ) : (
          <Table>
            <Table.Tbody>
              {names.map((placeholder) => (
                <Table.Tr key={placeholder}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    <Code dir="ltr">{`{{${placeholder}}}`}</Code>
                  </Table.Td>
                  <Table.Td>
                    {t(`admin.templates.placeholders.${placeholder}`, { defaultValue: "" })}
                    {essential.includes(placeholder) ? (
                      <Badge size="sm" variant="light" color="orange" ms="xs">
                        {t("admin.templates.required")}
                      </Badge>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
