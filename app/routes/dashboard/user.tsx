import { Anchor, Button, Card, Checkbox, Group, Stack, Table } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, data, redirect, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/user";
import { PageHeader } from "~/components/page-header";
import { PushNotifications } from "~/components/push/push-notifications";
import { setOrderNotification } from "~/domain/identity/users.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import {
  readPushRegistration,
  removePushSubscription,
  savePushSubscription,
  vapidKeys,
} from "~/domain/messaging/web-push.server";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { flashCookie } from "~/web/flash.server";
import { requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الحساب" : "Account" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireUser(context, request);
  const { publicKey } = await vapidKeys(getDbFrom(context));
  return {
    username: user.username,
    email: user.email,
    receiveOrderNotification: user.receiveOrderNotification,
    vapidPublicKey: publicKey,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user, sessionId } = requireUser(context, request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const db = getDbFrom(context);
  // This browser's push subscription, sent by the page's script (push needs one by nature).
  if (intent === "push_on" || intent === "push_off") {
    const lang = isLanguage(params.lang) ? params.lang : "en";
    const t = translator(lang);
    const read = await readPushRegistration(formData.get("subscription"));
    if (!read.ok) return data({ ok: false, message: t(read.error) }, { status: 400 });
    if (intent === "push_on") await savePushSubscription(db, user, read.registration, lang, sessionId);
    else await removePushSubscription(db, user, read.registration.endpoint);
    await recordAudit(db, {
      merchantId: user.merchantId,
      actor: { id: user.id, username: user.username },
      action: intent === "push_on" ? "push_notifications_on" : "push_notifications_off",
      params: {},
      objectType: "user",
      objectId: user.id,
    });
    return { ok: true, message: t(intent === "push_on" ? "push.saved" : "push.removed") };
  }
  const receive = formData.get("receive_order_notification") === "on";
  await setOrderNotification(db, user, receive);
  await recordAudit(db, {
    merchantId: user.merchantId,
    actor: { id: user.id, username: user.username },
    action: receive ? "order_notifications_on" : "order_notifications_off",
    params: {},
    objectType: "user",
    objectId: user.id,
  });
  const message = receive ? "user.subscribed" : "user.unsubscribed";
  return redirect(`/${params.lang}/user`, { headers: { "Set-Cookie": flashCookie({ kind: "success", message }) } });
}

export default function UserDetails() {
  const { t } = useTranslation();
  const { username, email, receiveOrderNotification, vapidPublicKey } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <Stack maw={640}>
      <PageHeader title={t("user.title")} />
      <Card withBorder padding="lg">
        <Table variant="vertical" layout="fixed" withTableBorder={false}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>{t("login.username")}</Table.Th>
              <Table.Td>{username}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t("user.email")}</Table.Th>
              <Table.Td>{email}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Card>
      <Card withBorder padding="lg">
        <Form method="post">
          <Stack gap="sm">
            <Checkbox
              name="receive_order_notification"
              value="on"
              defaultChecked={receiveOrderNotification}
              key={String(receiveOrderNotification)}
              label={t("user.receive_order_notification")}
              description={t("user.receive_order_notification_help")}
            />
            <Group>
              <Button type="submit" loading={busy}>
                {t("common.save")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <PushNotifications vapidPublicKey={vapidPublicKey} username={username} />
      <Anchor component={Link} to="password">
        {t("user.change_password_link")}
      </Anchor>
    </Stack>
  );
}
