import { Anchor, Badge, Button, Card, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/webhook";
import { EventChoices } from "~/components/admin/event-choices";
import { Callout } from "~/components/callout";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import {
  checkWebhookInput,
  deleteWebhook,
  findWebhook,
  listDeliveries,
  redeliver,
  sendTestEvent,
  updateWebhook,
  WEBHOOK_EVENTS,
} from "~/domain/integrations/webhooks.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "نقطة استقبال الإشعارات" : "Webhook endpoint" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const id = recordId(params.id);
  const db = getDbFrom(context);
  const webhook = id === null ? undefined : await findWebhook(db, auth.user.merchantId, id);
  if (!webhook) notFound();
  return {
    webhook,
    deliveries: await listDeliveries(db, auth.user.merchantId, webhook.id),
    events: [...WEBHOOK_EVENTS],
  };
}

type ActionResult = { errors?: Record<string, string[]>; values?: { url: string; events: string[] } };

/** `intent`: save (url, events), enable, disable, test, redeliver (delivery), delete. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) notFound();
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const manager = managerOf(auth.user);
  const ip = context.get(clientAddressContext);
  const here = `/${params.lang}/admin/webhooks/${id}`;
  const done = (message: string, to = here) =>
    redirect(to, { headers: { "Set-Cookie": flashCookie({ kind: "success", message }) } });
  const intent = String(form.get("intent") ?? "");
  if (intent === "save") {
    const values = { url: String(form.get("url") ?? ""), events: form.getAll("events").map(String) };
    const checked = await checkWebhookInput(values);
    if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
    const saved = await updateWebhook(db, { manager, id, changes: { url: checked.url, events: checked.events }, ip });
    if (!saved.ok) notFound();
    return done("admin.webhooks.saved");
  }
  if (intent === "enable" || intent === "disable") {
    const saved = await updateWebhook(db, { manager, id, changes: { enabled: intent === "enable" }, ip });
    if (!saved.ok) notFound();
    return done(intent === "enable" ? "admin.webhooks.done_enabled" : "admin.webhooks.done_disabled");
  }
  if (intent === "test") {
    const sent = await sendTestEvent(db, { manager, id, ip });
    if (!sent.ok && sent.code === "admin.webhooks.errors.disabled")
      return data<ActionResult>({ errors: { non_field_errors: [sent.code] } }, { status: 409 });
    if (!sent.ok) notFound();
    return done("admin.webhooks.test_sent");
  }
  if (intent === "redeliver") {
    const deliveryId = recordId(String(form.get("delivery") ?? ""));
    const queued = deliveryId === null ? null : await redeliver(db, { manager, endpointId: id, deliveryId, ip });
    if (queued && !queued.ok && queued.code === "admin.webhooks.errors.disabled")
      return data<ActionResult>({ errors: { non_field_errors: [queued.code] } }, { status: 409 });
    if (!queued?.ok) notFound();
    return done("admin.webhooks.redelivered");
  }
  if (intent === "delete") {
    const deleted = await deleteWebhook(db, { manager, id, ip });
    if (!deleted.ok) notFound();
    return done("admin.webhooks.deleted", `/${params.lang}/admin/webhooks`);
  }
  return data<ActionResult>({ errors: { non_field_errors: ["admin.webhooks.errors.not_found"] } }, { status: 400 });
}

export default function WebhookPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang as Language;
  const { webhook, deliveries, events } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const error = (field: string) => errors[field]?.map((key) => t(key)).join(" ") || undefined;
  type Delivery = (typeof deliveries)[number];
  const columns: DataColumn<Delivery>[] = [
    {
      key: "created",
      header: t("admin.webhooks.time"),
      nowrap: true,
      cell: (delivery) => formatDateTime(delivery.created, lang),
    },
    {
      key: "event",
      header: t("admin.webhooks.event"),
      cell: (delivery) => (
        <Stack gap={0}>
          <Text size="sm" dir="ltr">
            {delivery.event}
          </Text>
          <Text size="xs" c="dimmed" dir="ltr" ff="monospace">
            {delivery.event_id}
          </Text>
        </Stack>
      ),
    },
    { key: "attempt", header: t("admin.webhooks.attempt"), nowrap: true, cell: (delivery) => delivery.attempt },
    {
      key: "status",
      header: t("admin.webhooks.status"),
      nowrap: true,
      cell: (delivery) => (
        <Badge
          color={delivery.status === "succeeded" ? "green" : delivery.status === "skipped" ? "gray" : "red"}
          variant="light"
        >
          {t(`admin.webhooks.${delivery.status === "succeeded" ? "delivered" : delivery.status}`)}
        </Badge>
      ),
    },
    {
      key: "code",
      header: t("admin.webhooks.response_code"),
      nowrap: true,
      cell: (delivery) => delivery.response_code ?? "—",
    },
    {
      key: "answer",
      header: t("admin.webhooks.answer"),
      cell: (delivery) => (
        <Text size="xs" dir="ltr" ff="monospace" style={{ wordBreak: "break-all", maxWidth: 320 }} lineClamp={3}>
          {delivery.error ?? delivery.response_body ?? ""}
        </Text>
      ),
    },
    {
      key: "duration",
      header: t("admin.webhooks.duration"),
      nowrap: true,
      cell: (delivery) => t("admin.webhooks.ms", { ms: delivery.duration_ms }),
    },
    {
      key: "redeliver",
      header: t("admin.webhooks.actions"),
      nowrap: true,
      cell: (delivery) => (
        <Form method="post">
          <input type="hidden" name="delivery" value={delivery.id} />
          <Button
            type="submit"
            name="intent"
            value="redeliver"
            size="compact-sm"
            variant="default"
            disabled={busy || !webhook.enabled}
          >
            {t("admin.webhooks.redeliver")}
          </Button>
        </Form>
      ),
    },
  ];
  return (
    <Stack maw={1200}>
      <Anchor component={Link} to={`/${params.lang}/admin/webhooks`} size="sm">
        {t("admin.webhooks.back")}
      </Anchor>
      <PageHeader title={t("admin.webhooks.endpoint")} description={webhook.url} />
      {errors.non_field_errors ? (
        <Callout color="red" role="alert">
          {error("non_field_errors")}
        </Callout>
      ) : null}
      <Card withBorder padding="lg">
        <Group justify="space-between" wrap="wrap">
          <Badge color={webhook.enabled ? "green" : "gray"} variant="light">
            {t(webhook.enabled ? "admin.webhooks.enabled" : "admin.webhooks.disabled")}
          </Badge>
          <Form method="post">
            <Group gap="xs">
              <Button
                type="submit"
                name="intent"
                value="test"
                variant="light"
                size="sm"
                disabled={busy || !webhook.enabled}
              >
                {t("admin.webhooks.send_test")}
              </Button>
              <Button
                type="submit"
                name="intent"
                value={webhook.enabled ? "disable" : "enable"}
                variant="default"
                size="sm"
                disabled={busy}
              >
                {t(webhook.enabled ? "admin.webhooks.disable" : "admin.webhooks.enable")}
              </Button>
            </Group>
          </Form>
        </Group>
      </Card>
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <TextInput
              name="url"
              type="url"
              label={t("admin.webhooks.url")}
              required
              dir="ltr"
              defaultValue={result?.values?.url ?? webhook.url}
              error={error("url")}
            />
            <EventChoices events={events} chosen={result?.values?.events ?? webhook.events} error={error("events")} />
            <Group>
              <Button type="submit" name="intent" value="save" disabled={busy}>
                {t("admin.webhooks.save")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Text fw={600} component="h2" size="lg">
        {t("admin.webhooks.deliveries")}
      </Text>
      <DataTable
        rows={deliveries}
        rowKey={(delivery) => delivery.id}
        empty={t("admin.webhooks.no_deliveries")}
        minWidth={1000}
        hover={false}
        columns={columns}
      />
      <details>
        <summary className="link-summary">{t("admin.webhooks.delete")}</summary>
        <Form method="post">
          <Text size="sm" my={6}>
            {t("admin.webhooks.delete_confirm")}
          </Text>
          <Button type="submit" name="intent" value="delete" size="xs" color="red" disabled={busy}>
            {t("admin.webhooks.delete_now")}
          </Button>
        </Form>
      </details>
    </Stack>
  );
}
