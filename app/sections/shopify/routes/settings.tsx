import { Alert, Anchor, Badge, Button, Card, Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/settings";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { formatDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { formatAmount } from "~/lib/money";
import { paidAfterReject, recentCallbacks, resendCallback } from "../domain/callbacks.server";
import { checkConnection, loadConnection, rotateSecret, saveConnection } from "../domain/connection.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إعدادات Shopify" : "Shopify settings" }];
}

/** Managers of the merchant (manage_merchant) connect the shop; the section's `settings` feature opens the page. */
async function guard(context: Route.LoaderArgs["context"], request: Request, params: { lang?: string }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "shopify", "settings");
  requirePermission(auth, "manage_merchant");
  return { auth, lang: isLanguage(params.lang) ? params.lang : "en" };
}

/** The shop's connection: its domain, where the callbacks go, the signing secret, and the latest callbacks. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang } = await guard(context, request, params);
  const db = getDbFrom(context);
  const [connection, callbacks, toRefund] = await Promise.all([
    loadConnection(db, auth.user.merchantId),
    recentCallbacks(db, auth.user.merchantId),
    paidAfterReject(db, auth.user.merchantId),
  ]);
  return {
    lang,
    connection: connection
      ? {
          shop_domain: connection.shop_domain,
          callback_url: connection.callback_url,
          secret: connection.signing_secret,
          rotated: formatDateTime(connection.secret_rotated_at, lang),
        }
      : null,
    endpoint: `${new URL(request.url).origin}/api/v1/plugins/shopify/payment-session`,
    callbacks: callbacks.map((row) => ({ ...row, created_at: formatDateTime(row.created_at, lang) })),
    toRefund: toRefund.map((row) => ({
      id: row.id,
      orderNo: row.order_no,
      payment: row.payment_id,
      amount: formatAmount(row.amount, row.currency_code, lang),
      state: row.state,
      when: formatDateTime(row.created_at, lang),
    })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guard(context, request, params);
  const db = getDbFrom(context);
  const form = await readFormData(request);
  const manager = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const done = (message: string) =>
    redirect(`/${lang}/shopify/settings`, { headers: { "Set-Cookie": flashCookie({ kind: "success", message }) } });
  if (form.get("intent") === "resend") {
    const sent = await resendCallback(db, {
      merchantId: auth.user.merchantId,
      manager,
      transactionId: String(form.get("transaction_id") ?? "").slice(0, 40),
      action: String(form.get("action") ?? ""),
      ip,
    });
    if (!sent.ok)
      return redirect(`/${lang}/shopify/settings`, {
        headers: { "Set-Cookie": flashCookie({ kind: "error", message: sent.error }) },
      });
    return done("shopify.flash.resent");
  }
  if (form.get("intent") === "rotate") {
    if (!(await rotateSecret(db, { merchantId: auth.user.merchantId, manager, ip })))
      return data({ values: {}, errors: { non_field_errors: ["shopify.errors.not_connected"] } }, { status: 400 });
    return done("shopify.flash.rotated");
  }
  const values = {
    shop_domain: String(form.get("shop_domain") ?? "").slice(0, 300),
    callback_url: String(form.get("callback_url") ?? "").slice(0, 2100),
  };
  const checked = await checkConnection(values);
  if (!checked.ok) return data({ values, errors: checked.errors }, { status: 400 });
  const saved = await saveConnection(db, { merchantId: auth.user.merchantId, manager, values: checked.input, ip });
  return done(saved.created ? "shopify.flash.connected" : "shopify.flash.saved");
}

export default function ShopifySettings() {
  const { t } = useTranslation();
  const { connection, endpoint, callbacks, toRefund, lang } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const values = {
    shop_domain: connection?.shop_domain ?? "",
    callback_url: connection?.callback_url ?? "",
    ...(reply?.values ?? {}),
  };
  const errors: Record<string, string[] | undefined> = reply?.errors ?? {};
  const fieldError = (name: string) =>
    errors[name]?.length ? errors[name]!.map((key) => t(key)).join(" ") : undefined;
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={t("shopify.settings.title")} description={t("shopify.settings.description")} />
      {toRefund.length > 0 ? (
        <Alert color="red" title={t("shopify.settings.to_refund")} data-testid="paid-after-reject">
          <Stack gap="xs">
            <Text size="sm">{t("shopify.settings.to_refund_help")}</Text>
            {toRefund.map((row) => (
              <Text size="sm" key={row.id}>
                <Anchor component={Link} to={`/${lang}/shopify/transactions/${row.id}`}>
                  {t("shopify.settings.to_refund_row", {
                    orderNo: row.orderNo,
                    amount: row.amount,
                    payment: row.payment,
                    date: row.when,
                  })}
                </Anchor>
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(values)}>
          <Stack gap="md">
            <Title order={2} fz="h4">
              {t("shopify.settings.connection")}
            </Title>
            <FormErrors errors={errors.non_field_errors} />
            <TextInput
              name="shop_domain"
              id="f-shop_domain"
              label={t("shopify.settings.shop_domain")}
              description={t("shopify.settings.shop_domain_help")}
              defaultValue={values.shop_domain}
              error={fieldError("shop_domain")}
              dir="ltr"
              required
            />
            <TextInput
              name="callback_url"
              id="f-callback_url"
              label={t("shopify.settings.callback_url")}
              description={t("shopify.settings.callback_url_help")}
              defaultValue={values.callback_url}
              error={fieldError("callback_url")}
              dir="ltr"
              required
            />
            <Group>
              <Button type="submit" name="intent" value="save">
                {connection ? t("shopify.settings.save") : t("shopify.settings.connect")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {t("shopify.settings.hand_over")}
          </Title>
          <Text size="sm">{t("shopify.settings.hand_over_help")}</Text>
          <Code block dir="ltr">{`POST ${endpoint}\nAuthorization: Api-Key <key with the shopify:write scope>`}</Code>
          {connection ? (
            <>
              <Title order={3} fz="h5">
                {t("shopify.settings.secret")}
              </Title>
              <Text size="sm">{t("shopify.settings.secret_help")}</Text>
              <Code block dir="ltr" data-testid="signing-secret">
                {connection.secret}
              </Code>
              <Text size="xs" c="dimmed">
                {t("shopify.settings.rotated", { date: connection.rotated })}
              </Text>
              <Form method="post">
                <input type="hidden" name="intent" value="rotate" />
                <Button type="submit" variant="light" color="red">
                  {t("shopify.settings.rotate")}
                </Button>
              </Form>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t("shopify.settings.not_connected")}
            </Text>
          )}
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {t("shopify.settings.callbacks")}
          </Title>
          {callbacks.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t("shopify.settings.no_callbacks")}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("shopify.settings.columns.when")}</Table.Th>
                    <Table.Th>{t("shopify.settings.columns.payment")}</Table.Th>
                    <Table.Th>{t("shopify.settings.columns.action")}</Table.Th>
                    <Table.Th>{t("shopify.settings.columns.try")}</Table.Th>
                    <Table.Th>{t("shopify.settings.columns.result")}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {callbacks.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Td>{row.created_at}</Table.Td>
                      <Table.Td dir="ltr">{row.payment_id}</Table.Td>
                      <Table.Td>{t(`shopify.settings.actions.${row.action}`)}</Table.Td>
                      <Table.Td>{row.attempt}</Table.Td>
                      <Table.Td>
                        <Badge color={row.status === "succeeded" ? "green" : "red"} variant="light">
                          {t(`shopify.settings.statuses.${row.status}`)}
                        </Badge>{" "}
                        <Text span size="xs" c="dimmed" dir="ltr">
                          {row.response_code ?? row.error ?? ""}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {row.resendable ? (
                          <Form method="post">
                            <input type="hidden" name="intent" value="resend" />
                            <input type="hidden" name="transaction_id" value={row.transaction_id} />
                            <input type="hidden" name="action" value={row.action} />
                            <Button type="submit" size="compact-sm" variant="light">
                              {t("shopify.settings.resend")}
                            </Button>
                          </Form>
                        ) : null}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
