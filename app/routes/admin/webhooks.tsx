import { Anchor, Badge, Button, Card, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/webhooks";
import { Callout } from "~/components/callout";
import { EventChoices } from "~/components/admin/event-choices";
import { CopyField } from "~/components/copy-field";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { checkWebhookInput, createWebhook, listWebhooks, WEBHOOK_EVENTS } from "~/domain/integrations/webhooks.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الإشعارات البرمجية (Webhooks)" : "Webhooks" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  return { webhooks: await listWebhooks(getDbFrom(context), auth.user.merchantId), events: [...WEBHOOK_EVENTS] };
}

type ActionResult = {
  created?: { id: number; url: string; secret: string };
  errors?: Record<string, string[]>;
  values?: { url: string; events: string[] };
};

/** Adds an endpoint; its signing secret is shown in the answer, once. */
export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const values = { url: String(form.get("url") ?? ""), events: form.getAll("events").map(String) };
  const checked = await checkWebhookInput(values);
  if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
  const created = await createWebhook(getDbFrom(context), {
    manager: managerOf(auth.user),
    url: checked.url,
    events: checked.events,
    ip: context.get(clientAddressContext),
  });
  if (!created.ok) return data<ActionResult>({ errors: { non_field_errors: [created.code] }, values }, { status: 400 });
  return data<ActionResult>(
    { created: { id: created.id, url: checked.url, secret: created.secret } },
    { status: 201, headers: { "Cache-Control": "no-store" } },
  );
}

export default function WebhooksPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { webhooks, events } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const error = (field: string) => errors[field]?.map((key) => t(key, { count: 20 })).join(" ") || undefined;
  type Webhook = (typeof webhooks)[number];
  const columns: DataColumn<Webhook>[] = [
    {
      key: "url",
      header: t("admin.webhooks.url"),
      cell: (webhook) => (
        <Anchor
          component={Link}
          to={`/${params.lang}/admin/webhooks/${webhook.id}`}
          dir="ltr"
          size="sm"
          style={{ wordBreak: "break-all" }}
        >
          {webhook.url}
        </Anchor>
      ),
    },
    {
      key: "state",
      header: t("admin.webhooks.state"),
      nowrap: true,
      cell: (webhook) => (
        <Badge color={webhook.enabled ? "green" : "gray"} variant="light">
          {t(webhook.enabled ? "admin.webhooks.enabled" : "admin.webhooks.disabled")}
        </Badge>
      ),
    },
    {
      key: "events",
      header: t("admin.webhooks.events"),
      cell: (webhook) =>
        webhook.events
          .map((event) => t(`admin.webhooks.event_names.${event.replace(".", "_")}`))
          .join(t("common.list_separator")),
    },
  ];
  return (
    <Stack maw={1100}>
      <PageHeader title={t("admin.webhooks.title")} description={t("admin.webhooks.subtitle")} />
      {result?.created ? (
        <Callout color="green" role="status">
          <Stack gap="xs">
            <Text fw={600}>{t("admin.webhooks.created", { url: result.created.url })}</Text>
            <CopyField label={t("admin.webhooks.secret")} value={result.created.secret} />
            <Text size="sm">{t("admin.webhooks.secret_once")}</Text>
            <Anchor component={Link} to={`/${params.lang}/admin/webhooks/${result.created.id}`} size="sm">
              {t("admin.webhooks.open")}
            </Anchor>
          </Stack>
        </Callout>
      ) : null}
      {errors.non_field_errors ? (
        <Callout color="red" role="alert">
          {error("non_field_errors")}
        </Callout>
      ) : null}
      <DataTable
        rows={webhooks}
        rowKey={(webhook) => webhook.id}
        empty={t("admin.webhooks.none")}
        minWidth={700}
        hover={false}
        columns={columns}
      />
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <Text fw={600} component="h2" size="lg">
              {t("admin.webhooks.new")}
            </Text>
            <TextInput
              name="url"
              type="url"
              label={t("admin.webhooks.url")}
              description={t("admin.webhooks.url_hint")}
              required
              dir="ltr"
              defaultValue={result?.values?.url}
              error={error("url")}
            />
            <EventChoices events={events} chosen={result?.values?.events ?? [...events]} error={error("events")} />
            <Group>
              <Button type="submit" loading={busy}>
                {t("admin.webhooks.create")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Text size="sm" c="dimmed">
        {t("admin.webhooks.signing_note")}
      </Text>
    </Stack>
  );
}
