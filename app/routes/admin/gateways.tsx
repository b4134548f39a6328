import { Anchor, Badge, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/gateways";
import { CurrencyChoices } from "~/components/admin/currency-choices";
import { Callout } from "~/components/callout";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import {
  checkGatewayInput,
  createGateway,
  GATEWAY_KIND_KEYS,
  listGatewaysForAdmin,
  moveGateway,
  updateGateway,
} from "~/domain/payments/gateway-admin.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { sandboxEnabled } from "~/lib/env.server";
import { SUPPORTED_CURRENCIES } from "~/lib/money";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { sandboxCredentialsFor } from "~/domain/sandbox/accounts.server";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "بوابات الدفع" : "Gateways" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  return {
    gateways: await listGatewaysForAdmin(getDbFrom(context), auth.user.merchantId),
    kinds: GATEWAY_KIND_KEYS,
    currencies: [...SUPPORTED_CURRENCIES],
    sandbox: sandboxEnabled(),
  };
}

type ActionResult = { errors?: Record<string, string[]>; values?: Record<string, string | string[]> };

/** `intent`: add (a new gateway, then its page), up/down (order), enable/disable. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const manager = managerOf(auth.user);
  const ip = context.get(clientAddressContext);
  const intent = String(form.get("intent") ?? "");
  const text = (name: string) => String(form.get(name) ?? "");
  if (intent === "add") {
    const values = {
      kind: text("kind"),
      code: text("code").trim().toLowerCase(),
      name_en: text("name_en"),
      name_ar: text("name_ar"),
      currencies: form.getAll("currencies").map(String),
      endpoint_url: text("endpoint_url"),
    };
    const checked = await checkGatewayInput(values);
    if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
    const created = await createGateway(db, { manager, checked: checked.checked, sandbox: sandboxCredentialsFor, ip });
    if (!created.ok)
      return data<ActionResult>(
        { errors: { [created.field ?? "non_field_errors"]: [created.code] }, values },
        { status: 400 },
      );
    return redirect(`/${params.lang}/admin/gateways/${created.gateway.id}`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.gateways.added" }) },
    });
  }
  const id = /^\d{1,9}$/.test(text("id")) ? Number(text("id")) : null;
  const back = (message: string) =>
    redirect(`/${params.lang}/admin/gateways`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
    });
  if (id !== null && (intent === "up" || intent === "down")) {
    const moved = await moveGateway(db, { manager, id, direction: intent, ip });
    if (moved.ok) return back("admin.gateways.reordered");
  }
  if (id !== null && (intent === "enable" || intent === "disable")) {
    const current = (await listMerchantGateways(db, auth.user.merchantId)).find((row) => row.id === id);
    if (current) {
      const checked = await checkGatewayInput({ enabled: intent === "enable" }, current);
      if (!checked.ok) return data<ActionResult>({ errors: checked.errors }, { status: 400 });
      await updateGateway(db, { manager, id, checked: checked.checked, sandbox: sandboxCredentialsFor, ip });
      return back(intent === "enable" ? "admin.gateways.enabled_done" : "admin.gateways.disabled_done");
    }
  }
  return data<ActionResult>({ errors: { non_field_errors: ["admin.gateways.errors.not_found"] } }, { status: 404 });
}

export default function GatewaysPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { gateways, kinds, currencies, sandbox } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const error = (field: string) => errors[field]?.map((key) => t(key)).join(" ") || undefined;
  const value = (field: string) => result?.values?.[field] as string | undefined;
  type Gateway = (typeof gateways)[number];
  const columns: DataColumn<Gateway>[] = [
    {
      key: "order",
      header: t("admin.gateways.order"),
      nowrap: true,
      cell: (gateway) => (
        <Form method="post">
          <input type="hidden" name="id" value={gateway.id} />
          <Group gap={4} wrap="nowrap">
            <Button
              type="submit"
              name="intent"
              value="up"
              size="compact-xs"
              variant="default"
              disabled={busy || gateways.indexOf(gateway) === 0}
              aria-label={t("admin.gateways.move_up", {
                name: params.lang === "ar" ? gateway.name_ar : gateway.name_en,
              })}
            >
              ↑
            </Button>
            <Button
              type="submit"
              name="intent"
              value="down"
              size="compact-xs"
              variant="default"
              disabled={busy || gateways.indexOf(gateway) === gateways.length - 1}
              aria-label={t("admin.gateways.move_down", {
                name: params.lang === "ar" ? gateway.name_ar : gateway.name_en,
              })}
            >
              ↓
            </Button>
          </Group>
        </Form>
      ),
    },
    {
      key: "name",
      header: t("admin.gateways.name"),
      cell: (gateway) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/${params.lang}/admin/gateways/${gateway.id}`} fw={600} size="sm">
            {params.lang === "ar" ? gateway.name_ar : gateway.name_en}
          </Anchor>
          <Text size="xs" c="dimmed" dir="ltr">
            {gateway.code}
          </Text>
        </Stack>
      ),
    },
    { key: "kind", header: t("admin.gateways.kind"), cell: (gateway) => t(`admin.gateways.kinds.${gateway.kind}`) },
    {
      key: "currencies",
      header: t("admin.gateways.currencies"),
      cell: (gateway) => <bdi dir="ltr">{gateway.currencies.join(", ")}</bdi>,
    },
    {
      key: "mode",
      header: t("admin.gateways.mode"),
      nowrap: true,
      cell: (gateway) => (
        <Badge color={gateway.mode === "live" ? "blue" : "yellow"} variant="light">
          {t(`admin.gateways.modes.${gateway.mode}`)}
        </Badge>
      ),
    },
    {
      key: "credentials",
      header: t("admin.gateways.credentials"),
      cell: (gateway) =>
        gateway.uses_sandbox
          ? t("admin.gateways.sandbox_credentials")
          : gateway.credentials.length === 0
            ? "—"
            : gateway.credentials_set_at
              ? t("admin.gateways.set_on", {
                  date: new Date(gateway.credentials_set_at).toLocaleDateString(
                    params.lang === "ar" ? "ar-KW" : "en-GB",
                  ),
                })
              : gateway.credentials.every((entry) => entry.set)
                ? t("admin.gateways.set")
                : t("admin.gateways.not_set"),
    },
    {
      key: "state",
      header: t("admin.gateways.state"),
      nowrap: true,
      cell: (gateway) => (
        <Form method="post">
          <input type="hidden" name="id" value={gateway.id} />
          <Group gap="xs" wrap="nowrap">
            <Badge color={gateway.enabled ? "green" : "gray"} variant="light">
              {t(gateway.enabled ? "admin.gateways.enabled" : "admin.gateways.disabled")}
            </Badge>
            <Button
              type="submit"
              name="intent"
              value={gateway.enabled ? "disable" : "enable"}
              size="compact-sm"
              variant="default"
              disabled={busy}
            >
              {t(gateway.enabled ? "admin.gateways.disable" : "admin.gateways.enable")}
            </Button>
          </Group>
        </Form>
      ),
    },
  ];
  return (
    <Stack maw={1150}>
      <PageHeader title={t("admin.gateways.title")} description={t("admin.gateways.subtitle")} />
      {errors.non_field_errors || errors.enabled ? (
        <Callout color="red" role="alert">
          {error("non_field_errors") ?? error("enabled")}
        </Callout>
      ) : null}
      <DataTable
        rows={gateways}
        rowKey={(gateway) => gateway.id}
        empty={t("admin.gateways.none")}
        minWidth={900}
        hover={false}
        columns={columns}
      />
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <Text fw={600} component="h2" size="lg">
              {t("admin.gateways.new")}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                name="kind"
                label={t("admin.gateways.kind")}
                defaultValue={value("kind") ?? "knet"}
                data={kinds.map((kind) => ({ value: kind, label: t(`admin.gateways.kinds.${kind}`) }))}
                error={error("kind")}
              />
              <TextInput
                name="code"
                label={t("admin.gateways.code")}
                description={t("admin.gateways.code_hint")}
                required
                dir="ltr"
                maxLength={40}
                defaultValue={value("code")}
                error={error("code")}
              />
              <TextInput
                name="name_en"
                label={t("admin.gateways.fields.name_en")}
                required
                maxLength={60}
                defaultValue={value("name_en")}
                error={error("name_en")}
              />
              <TextInput
                name="name_ar"
                label={t("admin.gateways.fields.name_ar")}
                required
                maxLength={60}
                dir="rtl"
                defaultValue={value("name_ar")}
                error={error("name_ar")}
              />
            </SimpleGrid>
            <CurrencyChoices
              currencies={currencies}
              chosen={(result?.values?.currencies as string[] | undefined) ?? ["KWD"]}
              error={error("currencies")}
            />
            <TextInput
              name="endpoint_url"
              type="url"
              label={t("admin.gateways.fields.endpoint_url")}
              description={t(sandbox ? "admin.gateways.endpoint_hint_sandbox" : "admin.gateways.endpoint_hint")}
              dir="ltr"
              defaultValue={value("endpoint_url")}
              error={error("endpoint_url")}
            />
            <Text size="sm" c="dimmed">
              {t("admin.gateways.add_note")}
            </Text>
            <Group>
              <Button type="submit" name="intent" value="add" loading={busy}>
                {t("admin.gateways.add")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
