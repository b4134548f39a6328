import { Anchor, Badge, Button, Card, Checkbox, Group, NativeSelect, Stack, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/section";
import { Callout } from "~/components/callout";
import { PageHeader } from "~/components/page-header";
import {
  checkSectionSettings,
  listSectionStates,
  loadSectionSettings,
  MAX_HOURS,
  updateSectionSettings,
} from "~/domain/merchants/sections-admin.server";
import { offersCheckoutFields } from "~/sections/registry";
import { findConfigurableSection } from "~/sections/admin-sections.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إعدادات القسم" : "Section settings" }];
}

function guard({
  context,
  request,
  params,
}: {
  context: Route.LoaderArgs["context"];
  request: Request;
  params: Route.LoaderArgs["params"];
}) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const section = findConfigurableSection(params.key);
  if (!section) notFound();
  return { auth, section };
}

export async function loader(args: Route.LoaderArgs) {
  const { auth, section } = guard(args);
  const db = getDbFrom(args.context);
  const [values, [state]] = await Promise.all([
    loadSectionSettings(db, auth.user.merchantId, section),
    listSectionStates(db, auth.user.merchantId, [section]),
  ]);
  // Its checkout fields have a page of their own, for a section whose declaration offers them.
  const checkoutFields = offersCheckoutFields(section.key);
  return {
    key: section.key,
    installed: state.installed,
    fields: section.settings,
    values,
    maxHours: MAX_HOURS,
    checkoutFields,
  };
}

type ActionResult = { errors: Record<string, string[]>; values: Record<string, string> };

/** Every field that can change is sent: an emptied number means none, an unticked box turns it off. */
export async function action(args: Route.ActionArgs) {
  const { auth, section } = guard(args);
  const form = await readFormData(args.request);
  const sent = Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  const checked = checkSectionSettings(section.settings, sent, "form");
  if (!checked.ok) return data<ActionResult>({ errors: checked.errors, values: sent }, { status: 400 });
  await updateSectionSettings(getDbFrom(args.context), {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    section,
    changes: checked.changes,
    ip: args.context.get(clientAddressContext),
  });
  return redirect(`/${args.params.lang}/admin/sections/${section.key}`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.sections.done.saved" }) },
  });
}

export default function SectionSettingsPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { key, installed, fields, values, maxHours, checkoutFields } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const error = (name: string) => result?.errors[name]?.map((code) => t(code)).join(" ") || undefined;
  // After a refused save, what was typed and ticked is shown again.
  const shown = (name: string) => (result ? (result.values[name] ?? null) : values[name]);
  return (
    <Stack maw={760}>
      <Anchor component={Link} to={`/${params.lang}/admin/sections`} size="sm">
        {t("admin.sections.back")}
      </Anchor>
      <PageHeader
        title={t("admin.sections.settings_title", { section: t(`sections.${key}`) })}
        description={t("admin.sections.settings_subtitle")}
      />
      <Group>
        <Badge color={installed ? "green" : "gray"} variant="light">
          {t(installed ? "admin.sections.installed" : "admin.sections.not_installed")}
        </Badge>
        {checkoutFields ? (
          <Anchor component={Link} to={`/${params.lang}/admin/sections/${key}/checkout-fields`} size="sm">
            {t("admin.checkout_fields.open")}
          </Anchor>
        ) : null}
      </Group>
      {result ? (
        <Callout color="red" role="alert">
          {t("admin.sections.errors.not_saved")}
        </Callout>
      ) : null}
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            {fields.map((field) => {
              const common = {
                label: t(field.label),
                description: field.hint ? t(field.hint) : undefined,
                error: error(field.name),
              };
              if (field.type === "boolean") {
                const on = field.fixed
                  ? field.default
                  : result
                    ? shown(field.name) === "on"
                    : shown(field.name) === true;
                // A fixed setting is shown as it is and never sent.
                return (
                  <Checkbox
                    key={field.name}
                    name={field.fixed ? undefined : field.name}
                    value="on"
                    defaultChecked={on}
                    disabled={field.fixed}
                    {...common}
                  />
                );
              }
              if (field.type === "hours") {
                const value = shown(field.name);
                return (
                  <TextInput
                    key={field.name}
                    name={field.name}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={maxHours}
                    step={1}
                    maw={240}
                    defaultValue={value === null || value === undefined ? "" : String(value)}
                    {...common}
                  />
                );
              }
              return (
                <NativeSelect
                  key={field.name}
                  name={field.name}
                  data={field.choices.map((choice) => ({ value: choice.value, label: t(choice.label) }))}
                  defaultValue={String(shown(field.name) ?? field.default)}
                  maw={320}
                  {...common}
                />
              );
            })}
            <Group>
              <Button type="submit" loading={busy}>
                {t("admin.sections.save")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
