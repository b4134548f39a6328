import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/api-keys";
import { Callout } from "~/components/callout";
import { CheckboxChoice } from "~/components/choice";
import { CopyField } from "~/components/copy-field";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import {
  checkApiKeyInput,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  SCOPE_OPERATIONS,
  SETUP_OPERATIONS,
  setupAreasOf,
} from "~/domain/identity/api-keys.server";
import { API_KEY_PLUGINS } from "~/sections/registry";
import { loadAvailableSections } from "~/domain/merchants/merchants.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

const GRACE_CHOICES = ["0", "3600", "86400", "604800"] as const;
const OPERATIONS = Object.keys(SCOPE_OPERATIONS);

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "مفاتيح API" : "API keys" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const db = getDbFrom(context);
  const [keys, available] = await Promise.all([
    listApiKeys(db, auth.user.merchantId),
    loadAvailableSections(db, auth.user.merchantId),
  ]);
  const plugins = API_KEY_PLUGINS.filter((plugin) => available[plugin]);
  // A set-up area named like its section (the catalogue) is chosen with that section's read and write.
  const setupAreas = setupAreasOf(plugins).filter((area) => !plugins.includes(area));
  return { keys, plugins, operations: OPERATIONS, setupAreas, setupOperations: SETUP_OPERATIONS };
}

type Shown = { name: string; key: string; prefix: string; rotated: boolean };
type ActionResult = { shown?: Shown; errors?: Record<string, string[]>; values?: Record<string, string> };

/** `intent`: create (name, scopes, allowed_ips, expires_at), rotate (id, grace_seconds) or revoke (id). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const manager = managerOf(auth.user);
  const ip = context.get(clientAddressContext);
  const intent = String(form.get("intent") ?? "");
  const noStore = { "Cache-Control": "no-store" };
  if (intent === "create") {
    const values = {
      name: String(form.get("name") ?? ""),
      allowed_ips: String(form.get("allowed_ips") ?? ""),
      expires_at: String(form.get("expires_at") ?? ""),
    };
    const checked = checkApiKeyInput(
      {
        name: values.name,
        scopes: form.getAll("scopes").map(String),
        allowed_ips: values.allowed_ips.split(/[\s,]+/).filter(Boolean),
        // A date picked on the page: the key works until the end of that day (Kuwait time).
        expires_at: values.expires_at ? `${values.expires_at}T23:59:59+03:00` : null,
      },
      API_KEY_PLUGINS,
    );
    if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
    const created = await createApiKey(db, { manager, key: checked.value, ip });
    if (!created.ok)
      return data<ActionResult>({ errors: { [created.field ?? "scopes"]: [created.code] }, values }, { status: 403 });
    return data<ActionResult>(
      { shown: { name: checked.value.name, key: created.key, prefix: created.prefix, rotated: false } },
      { status: 201, headers: noStore },
    );
  }
  const id = /^\d{1,9}$/.test(String(form.get("id") ?? "")) ? Number(form.get("id")) : null;
  if (id === null)
    return data<ActionResult>({ errors: { non_field_errors: ["admin.api_keys.errors.not_found"] } }, { status: 404 });
  if (intent === "rotate") {
    const grace = String(form.get("grace_seconds") ?? "0");
    const outcome = await rotateApiKey(db, {
      manager,
      id,
      graceSeconds: (GRACE_CHOICES as readonly string[]).includes(grace) ? Number(grace) : 0,
      ip,
    });
    if (!outcome.ok) return data<ActionResult>({ errors: { non_field_errors: [outcome.code] } }, { status: 400 });
    const name = (await listApiKeys(db, auth.user.merchantId)).find((key) => key.id === id)?.name ?? "";
    return data<ActionResult>(
      { shown: { name, key: outcome.key, prefix: outcome.prefix, rotated: true } },
      { headers: noStore },
    );
  }
  if (intent === "revoke") {
    const outcome = await revokeApiKey(db, { manager, id, ip });
    if (!outcome.ok) return data<ActionResult>({ errors: { non_field_errors: [outcome.code] } }, { status: 404 });
    return redirect(`/${params.lang}/admin/api-keys`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.api_keys.revoked" }) },
    });
  }
  return data<ActionResult>({ errors: { non_field_errors: ["admin.api_keys.errors.not_found"] } }, { status: 400 });
}

export default function ApiKeysPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang as Language;
  const { keys, plugins, operations, setupAreas, setupOperations } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  const error = (field: string) => errors[field]?.map((key) => t(key)).join(" ") || undefined;
  const when = (value: string | null) => (value ? formatDateTime(value, lang) : "—");
  type Key = (typeof keys)[number];
  const columns: DataColumn<Key>[] = [
    {
      key: "name",
      header: t("admin.api_keys.name"),
      cell: (key) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {key.name}
          </Text>
          <Text size="xs" c="dimmed" dir="ltr" ff="monospace">
            {key.prefix}…
          </Text>
        </Stack>
      ),
    },
    {
      key: "state",
      header: t("admin.api_keys.state"),
      nowrap: true,
      cell: (key) => (
        <Badge color={key.is_active ? "green" : "gray"} variant="light">
          {t(
            key.revoked_at
              ? "admin.api_keys.state_revoked"
              : key.is_active
                ? "admin.api_keys.state_active"
                : "admin.api_keys.state_expired",
          )}
        </Badge>
      ),
    },
    { key: "scopes", header: t("admin.api_keys.scopes"), cell: (key) => <bdi dir="ltr">{key.scopes.join(", ")}</bdi> },
    {
      key: "allowed_ips",
      header: t("admin.api_keys.allowed_ips"),
      cell: (key) => <bdi dir="ltr">{key.allowed_ips.join(", ") || t("admin.api_keys.any_address")}</bdi>,
    },
    {
      key: "used",
      header: t("admin.api_keys.last_used"),
      cell: (key) =>
        key.last_used_at ? (
          <Text size="sm">
            {when(key.last_used_at)} · <bdi dir="ltr">{key.last_used_ip ?? "—"}</bdi>
          </Text>
        ) : (
          t("admin.api_keys.never_used")
        ),
    },
    {
      key: "dates",
      header: t("admin.api_keys.dates"),
      cell: (key) => (
        <Stack gap={0}>
          <Text size="sm">
            {t("admin.api_keys.created_on", { date: when(key.created), user: key.created_by ?? "—" })}
          </Text>
          {key.expires_at ? (
            <Text size="sm">{t("admin.api_keys.expires_on", { date: when(key.expires_at) })}</Text>
          ) : null}
          {key.previous_valid_until && new Date(key.previous_valid_until) > new Date() ? (
            <Text size="sm">{t("admin.api_keys.old_until", { date: when(key.previous_valid_until) })}</Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: "actions",
      header: t("admin.api_keys.actions"),
      cell: (key) =>
        key.revoked_at ? null : (
          <Stack gap="xs">
            <Form method="post">
              <input type="hidden" name="id" value={key.id} />
              <Group gap="xs" wrap="nowrap" align="flex-end">
                <Select
                  name="grace_seconds"
                  size="xs"
                  w={170}
                  label={t("admin.api_keys.grace")}
                  defaultValue="3600"
                  allowDeselect={false}
                  data={GRACE_CHOICES.map((value) => ({ value, label: t(`admin.api_keys.grace_${value}`) }))}
                />
                <Button
                  type="submit"
                  name="intent"
                  value="rotate"
                  size="xs"
                  variant="default"
                  disabled={busy}
                  aria-label={t("admin.api_keys.rotate_key", { name: key.name })}
                >
                  {t("admin.api_keys.rotate")}
                </Button>
              </Group>
            </Form>
            <details>
              <summary className="link-summary">{t("admin.api_keys.revoke")}</summary>
              <Form method="post">
                <input type="hidden" name="id" value={key.id} />
                <Text size="sm" my={6}>
                  {t("admin.api_keys.revoke_confirm", { name: key.name })}
                </Text>
                <Button
                  type="submit"
                  name="intent"
                  value="revoke"
                  size="xs"
                  color="red"
                  disabled={busy}
                  aria-label={t("admin.api_keys.revoke_key", { name: key.name })}
                >
                  {t("admin.api_keys.revoke_now")}
                </Button>
              </Form>
            </details>
          </Stack>
        ),
    },
  ];
  return (
    <Stack maw={1200}>
      <PageHeader title={t("admin.api_keys.title")} description={t("admin.api_keys.subtitle")} />
      {result?.shown ? (
        <Callout color="green" role="status">
          <Stack gap="xs">
            <Text fw={600}>
              {t(result.shown.rotated ? "admin.api_keys.rotated" : "admin.api_keys.created", {
                name: result.shown.name,
              })}
            </Text>
            <CopyField label={t("admin.api_keys.key")} value={result.shown.key} />
            <Text size="sm">{t("admin.api_keys.shown_once")}</Text>
            <Text size="sm" dir="ltr" ff="monospace">
              Authorization: Api-Key {result.shown.prefix}_…
            </Text>
          </Stack>
        </Callout>
      ) : null}
      {errors.non_field_errors ? (
        <Callout color="red" role="alert">
          {error("non_field_errors")}
        </Callout>
      ) : null}
      <DataTable
        rows={keys}
        rowKey={(key) => key.id}
        empty={t("admin.api_keys.none")}
        minWidth={1000}
        hover={false}
        columns={columns}
      />
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <Text fw={600} component="h2" size="lg">
              {t("admin.api_keys.new")}
            </Text>
            <TextInput
              name="name"
              label={t("admin.api_keys.name")}
              required
              maxLength={100}
              defaultValue={result?.values?.name}
              error={error("name")}
            />
            <fieldset className="plain-fieldset" aria-describedby={errors.scopes ? "scopes-error" : undefined}>
              <legend className="choice-legend">{t("admin.api_keys.scopes")}</legend>
              <Text size="sm" c="dimmed" mb={6}>
                {t("admin.api_keys.scopes_hint")}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {plugins.map((plugin) => (
                  <Stack key={plugin} gap={4}>
                    <Text size="sm" fw={600}>
                      {t(`sections.${plugin}`)}
                    </Text>
                    <Group gap="md">
                      {operations.map((operation) => (
                        <CheckboxChoice
                          key={operation}
                          name="scopes"
                          value={`${plugin}:${operation}`}
                          label={t(`admin.api_keys.operations.${operation}`)}
                        />
                      ))}
                    </Group>
                    {plugin === "catalogue" ? (
                      <Text size="xs" c="dimmed">
                        {t("admin.api_keys.catalogue_setup_hint")}
                      </Text>
                    ) : null}
                  </Stack>
                ))}
                {setupAreas.map((area) => (
                  <Stack key={area} gap={4}>
                    <Text size="sm" fw={600}>
                      {t(`admin.api_keys.areas.${area}`)}
                    </Text>
                    <Group gap="md">
                      {setupOperations.map((operation) => (
                        <CheckboxChoice
                          key={operation}
                          name="scopes"
                          value={`${area}:${operation}`}
                          label={t(`admin.api_keys.operations.${operation}`)}
                        />
                      ))}
                    </Group>
                  </Stack>
                ))}
              </SimpleGrid>
              {errors.scopes ? (
                <Text id="scopes-error" size="sm" c="red" mt={4}>
                  {error("scopes")}
                </Text>
              ) : null}
            </fieldset>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Textarea
                name="allowed_ips"
                label={t("admin.api_keys.allowed_ips")}
                description={t("admin.api_keys.allowed_ips_hint")}
                autosize
                minRows={2}
                dir="ltr"
                defaultValue={result?.values?.allowed_ips}
                error={error("allowed_ips")}
              />
              <TextInput
                type="date"
                name="expires_at"
                label={t("admin.api_keys.expires_at")}
                description={t("admin.api_keys.expires_hint")}
                defaultValue={result?.values?.expires_at}
                error={error("expires_at")}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" name="intent" value="create" loading={busy}>
                {t("admin.api_keys.create")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
