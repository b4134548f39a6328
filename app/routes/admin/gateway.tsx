import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/gateway";
import { CurrencyChoices } from "~/components/admin/currency-choices";
import { Callout } from "~/components/callout";
import { CopyField } from "~/components/copy-field";
import { PageHeader } from "~/components/page-header";
import {
  checkGatewayInput,
  credentialFieldsOf,
  registeredAddresses,
  settingsOf,
  testGatewayConnection,
  updateGateway,
  viewOf,
} from "~/domain/payments/gateway-admin.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { GATEWAY_KINDS } from "~/domain/payments/gateways/registry";
import { sandboxEnabled } from "~/lib/env.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { SUPPORTED_CURRENCIES } from "~/lib/money";
import { platformAddresses } from "~/web/addresses.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { sandboxCredentialsFor } from "~/domain/sandbox/accounts.server";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "بوابة الدفع" : "Gateway" }];
}

async function currentGateway(context: Route.LoaderArgs["context"], merchantId: number, id: string | undefined) {
  const wanted = recordId(id);
  const row =
    wanted === null
      ? undefined
      : (await listMerchantGateways(getDbFrom(context), merchantId)).find((gateway) => gateway.id === wanted);
  if (!row) notFound();
  return row;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const row = await currentGateway(context, auth.user.merchantId, params.id);
  return {
    gateway: viewOf(row),
    credentialFields: credentialFieldsOf(row.kind),
    addresses: registeredAddresses(row.kind, platformAddresses(request).publicBaseUrl),
    offline: settingsOf(row.kind).offline ?? false,
    canCapture:
      (GATEWAY_KINDS as Record<string, { operations: readonly string[] }>)[row.kind]?.operations.includes("capture") ??
      false,
    currencies: [...SUPPORTED_CURRENCIES],
    sandbox: sandboxEnabled(),
  };
}

type ActionResult = {
  errors?: Record<string, string[]>;
  values?: Record<string, string | string[]>;
  tested?: { result: string; detail: string };
};

/** `intent`: save (every field; credential fields typed replace the stored ones) or test (Test connection). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const row = await currentGateway(context, auth.user.merchantId, params.id);
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const manager = managerOf(auth.user);
  const ip = context.get(clientAddressContext);
  const intent = String(form.get("intent") ?? "");
  const text = (name: string) => String(form.get(name) ?? "");
  if (intent === "test") {
    const tested = await testGatewayConnection(db, { manager, id: row.id, platform: platformAddresses(request), ip });
    if (!tested.ok) notFound();
    return data<ActionResult>({ tested: { result: tested.result, detail: tested.detail } });
  }
  const credentials = Object.fromEntries(
    credentialFieldsOf(row.kind).map((entry) => [entry.field, text(`credentials.${entry.field}`)]),
  );
  const values = {
    name_en: text("name_en"),
    name_ar: text("name_ar"),
    currencies: form.getAll("currencies").map(String),
    fee_fixed: text("fee_fixed"),
    fee_percentage: text("fee_percentage"),
    fee_payer: text("fee_payer"),
    capture_mode: text("capture_mode") || "auto",
    mode: text("mode"),
    endpoint_url: text("endpoint_url"),
  };
  const checked = await checkGatewayInput({ ...values, credentials }, row);
  // What was typed is sent back for correction, never the credentials.
  if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
  await updateGateway(db, { manager, id: row.id, checked: checked.checked, sandbox: sandboxCredentialsFor, ip });
  return redirect(`/${params.lang}/admin/gateways/${row.id}`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.gateways.saved" }) },
  });
}

export default function GatewayPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang as Language;
  const { gateway, credentialFields, addresses, offline, canCapture, currencies, sandbox } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const error = (field: string) => errors[field]?.map((key) => t(key)).join(" ") || undefined;
  const value = (field: keyof typeof gateway & string) =>
    (result?.values?.[field] as string | undefined) ?? (gateway[field] as string | null) ?? "";
  const testedColor =
    result?.tested?.result === "connected" ? "green" : result?.tested?.result === "nothing_to_test" ? "blue" : "red";
  return (
    <Stack maw={900}>
      <Anchor component={Link} to={`/${params.lang}/admin/gateways`} size="sm">
        {t("admin.gateways.back")}
      </Anchor>
      <PageHeader
        title={lang === "ar" ? gateway.name_ar : gateway.name_en}
        description={`${t(`admin.gateways.kinds.${gateway.kind}`)} · ${gateway.code}`}
      />
      <Group gap="xs">
        <Badge color={gateway.enabled ? "green" : "gray"} variant="light">
          {t(gateway.enabled ? "admin.gateways.enabled" : "admin.gateways.disabled")}
        </Badge>
        <Badge color={gateway.mode === "live" ? "blue" : "yellow"} variant="light">
          {t(`admin.gateways.modes.${gateway.mode}`)}
        </Badge>
      </Group>
      {result?.tested ? (
        <Callout color={testedColor} role="status">
          <Text fw={600}>{t(`admin.gateways.test.${result.tested.result}`)}</Text>
          {result.tested.detail ? (
            <Text size="sm" dir="ltr">
              {result.tested.detail}
            </Text>
          ) : null}
        </Callout>
      ) : null}
      <Card withBorder padding="lg">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">{t("admin.gateways.test_note")}</Text>
          <Form method="post">
            <Button type="submit" name="intent" value="test" variant="light" loading={busy}>
              {t("admin.gateways.test_connection")}
            </Button>
          </Form>
        </Group>
      </Card>
      <Form method="post" noValidate autoComplete="off">
        <Stack>
          <Card withBorder padding="lg">
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
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
                chosen={(result?.values?.currencies as string[] | undefined) ?? gateway.currencies}
                error={error("currencies")}
              />
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput
                  name="fee_fixed"
                  label={t("admin.gateways.fields.fee_fixed")}
                  description={t("admin.gateways.fee_fixed_hint", { currency: gateway.currencies[0] ?? "KWD" })}
                  inputMode="decimal"
                  dir="ltr"
                  defaultValue={value("fee_fixed")}
                  error={error("fee_fixed")}
                />
                <TextInput
                  name="fee_percentage"
                  label={t("admin.gateways.fields.fee_percentage")}
                  description={t("admin.gateways.fee_percentage_hint")}
                  inputMode="decimal"
                  dir="ltr"
                  defaultValue={value("fee_percentage")}
                  error={error("fee_percentage")}
                />
                <NativeSelect
                  name="fee_payer"
                  label={t("admin.gateways.fields.fee_payer")}
                  defaultValue={value("fee_payer")}
                  data={[
                    { value: "customer", label: t("admin.gateways.payer.customer") },
                    { value: "merchant", label: t("admin.gateways.payer.merchant") },
                  ]}
                  error={error("fee_payer")}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {canCapture ? (
                  <NativeSelect
                    name="capture_mode"
                    label={t("admin.gateways.fields.capture_mode")}
                    defaultValue={value("capture_mode")}
                    data={[
                      { value: "auto", label: t("admin.gateways.capture.auto") },
                      { value: "manual", label: t("admin.gateways.capture.manual") },
                    ]}
                    error={error("capture_mode")}
                  />
                ) : null}
                <NativeSelect
                  name="mode"
                  label={t("admin.gateways.fields.mode")}
                  defaultValue={value("mode")}
                  data={[
                    { value: "test", label: t("admin.gateways.modes.test") },
                    { value: "live", label: t("admin.gateways.modes.live") },
                  ]}
                  error={error("mode")}
                />
              </SimpleGrid>
            </Stack>
          </Card>
          {offline ? null : (
            <Card withBorder padding="lg">
              <Stack>
                <Text fw={600} component="h2" size="lg">
                  {t("admin.gateways.connection")}
                </Text>
                <TextInput
                  name="endpoint_url"
                  type="url"
                  label={t("admin.gateways.fields.endpoint_url")}
                  description={t(sandbox ? "admin.gateways.endpoint_hint_sandbox" : "admin.gateways.endpoint_hint")}
                  dir="ltr"
                  defaultValue={value("endpoint_url")}
                  error={error("endpoint_url")}
                />
                {gateway.uses_sandbox ? (
                  <Text size="sm" c="dimmed">
                    {t("admin.gateways.sandbox_note")}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    {gateway.credentials_set_at
                      ? t("admin.gateways.credentials_set_at", {
                          date: formatDateTime(gateway.credentials_set_at, lang),
                        })
                      : t("admin.gateways.credentials_note")}
                  </Text>
                )}
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {credentialFields.map((entry) => {
                    const set = gateway.credentials.find((stored) => stored.field === entry.field)?.set ?? false;
                    const state = set
                      ? t("admin.gateways.credential_set")
                      : t(entry.required ? "admin.gateways.credential_not_set" : "admin.gateways.credential_optional");
                    const Input = entry.secret ? PasswordInput : TextInput;
                    return (
                      <Input
                        key={entry.field}
                        name={`credentials.${entry.field}`}
                        label={t(`admin.gateways.credential.${entry.field}`)}
                        description={entry.hint ? `${t(entry.hint)} ${state}` : state}
                        autoComplete={entry.secret ? "new-password" : "off"}
                        dir="ltr"
                        error={error(`credentials.${entry.field}`)}
                      />
                    );
                  })}
                </SimpleGrid>
                {addresses.length ? <RegisteredAddresses kind={gateway.kind} addresses={addresses} /> : null}
                {error("credentials") ? (
                  <Text size="sm" c="red">
                    {error("credentials")}
                  </Text>
                ) : null}
              </Stack>
            </Card>
          )}
          <Group>
            <Button type="submit" name="intent" value="save" loading={busy}>
              {t("admin.gateways.save")}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Stack>
  );
}

/** The platform's addresses the bank registers for this gateway, to copy (or select, without JavaScript). */
function RegisteredAddresses({ kind, addresses }: { kind: string; addresses: { leg: string; url: string }[] }) {
  const { t } = useTranslation();
  const host = new URL(addresses[0].url).host;
  return (
    <Stack gap="xs">
      <Text fw={600} component="h3" size="md">
        {t("admin.gateways.addresses.title")}
      </Text>
      <Text size="sm" c="dimmed">
        {t([`admin.gateways.addresses.note_${kind}`, "admin.gateways.addresses.note"], { host })}
      </Text>
      {addresses.map((address) => (
        <CopyField
          key={address.leg}
          label={t(`admin.gateways.addresses.${address.leg}`)}
          value={address.url}
          description={t("admin.gateways.addresses.per_attempt")}
        />
      ))}
    </Stack>
  );
}
