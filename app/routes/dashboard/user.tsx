import { Anchor, Button, Card, Checkbox, Group, Stack, Table } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, redirect, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/user";
import { PageHeader } from "~/components/page-header";
import { setOrderNotification } from "~/domain/identity/users.server";
import { recordAudit } from "~/domain/audit/audit-log.server";
import { flashCookie } from "~/web/flash.server";
import { requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الحساب" : "Account" }];
}

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireUser(context, request);
  return { username: user.username, email: user.email, receiveOrderNotification: user.receiveOrderNotification };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireUser(context, request);
  const formData = await readFormData(request);
  const receive = formData.get("receive_order_notification") === "on";
  const db = getDbFrom(context);
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
  const { username, email, receiveOrderNotification } = useLoaderData<typeof loader>();
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
      <Anchor component={Link} to="password">
        {t("user.change_password_link")}
      </Anchor>
    </Stack>
  );
}
