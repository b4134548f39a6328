import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/section-checkout-fields";
import { Callout } from "~/components/callout";
import { PageHeader } from "~/components/page-header";
import { CHECKOUT_VALIDATORS, checkFieldSettings, MAX_FIELD_LENGTH } from "~/domain/payments/checkout-fields";
import {
  createCheckoutField,
  findCheckoutField,
  listCheckoutFields,
  moveCheckoutField,
  updateCheckoutField,
  type CheckoutField,
} from "~/domain/payments/checkout-fields.server";
import { offersCheckoutFields } from "~/sections/registry";
import { findAdminSection } from "~/sections/admin-sections.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "حقول الدفع" : "Checkout fields" }];
}

/** A built section whose declaration offers checkout fields; any other is not found. */
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
  const section = findAdminSection(params.key);
  if (!section || !offersCheckoutFields(section.key)) notFound();
  return { auth, section: { key: section.key, name: section.name } };
}

export async function loader(args: Route.LoaderArgs) {
  const { auth, section } = guard(args);
  return {
    key: section.key,
    fields: await listCheckoutFields(getDbFrom(args.context), auth.user.merchantId, section.key),
    validators: [...CHECKOUT_VALIDATORS],
    maxLength: MAX_FIELD_LENGTH,
  };
}

/** Which form was refused (`new`, or a field's id), with what it said and what was typed. */
type ActionResult = { form: string; errors: Record<string, string[]>; values: Record<string, string> };

/** `intent`: create, update (a field's settings), up/down (the order), deactivate/activate. */
export async function action(args: Route.ActionArgs) {
  const { auth, section } = guard(args);
  const form = await readFormData(args.request);
  const db = getDbFrom(args.context);
  const sent = Object.fromEntries(
    [...form.entries()].filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && !["intent", "id"].includes(entry[0]),
    ),
  );
  const intent = String(form.get("intent") ?? "");
  const common = {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    section,
    ip: args.context.get(clientAddressContext),
  };
  const back = (message: string) =>
    redirect(`/${args.params.lang}/admin/sections/${section.key}/checkout-fields`, {
      status: 303,
      headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
    });
  if (intent === "create") {
    const checked = checkFieldSettings(sent, "form");
    if (!checked.ok) return data<ActionResult>({ form: "new", errors: checked.errors, values: sent }, { status: 400 });
    const created = await createCheckoutField(db, { ...common, settings: checked.changes });
    if (!created.ok)
      return data<ActionResult>(
        { form: "new", errors: { [created.field ?? "non_field_errors"]: [created.code] }, values: sent },
        { status: 400 },
      );
    return back("admin.checkout_fields.done.created");
  }
  if (!["update", "up", "down", "deactivate", "activate"].includes(intent))
    return data<ActionResult>(
      { form: "", errors: { non_field_errors: ["admin.checkout_fields.errors.unknown_intent"] }, values: {} },
      { status: 400 },
    );
  const id = recordId(String(form.get("id") ?? ""));
  const field = id === null ? undefined : await findCheckoutField(db, auth.user.merchantId, section.key, id);
  if (!field) notFound();
  if (intent === "up" || intent === "down") {
    await moveCheckoutField(db, { ...common, id: field.id, direction: intent });
    return back("admin.checkout_fields.done.moved");
  }
  if (intent === "deactivate" || intent === "activate") {
    await updateCheckoutField(db, { ...common, id: field.id, changes: { is_active: intent === "activate" } });
    return back(
      intent === "activate" ? "admin.checkout_fields.done.activated" : "admin.checkout_fields.done.deactivated",
    );
  }
  const checked = checkFieldSettings(sent, "form", field);
  if (!checked.ok)
    return data<ActionResult>({ form: String(field.id), errors: checked.errors, values: sent }, { status: 400 });
  await updateCheckoutField(db, { ...common, id: field.id, changes: checked.changes });
  return back("admin.checkout_fields.done.saved");
}

export default function CheckoutFieldsPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { key, fields } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const label = (field: CheckoutField) => (params.lang === "ar" ? field.label_ar : field.label_en);
  return (
    <Stack maw={900}>
      <Anchor component={Link} to={`/${params.lang}/admin/sections/${key}`} size="sm">
        {t("admin.checkout_fields.back", { section: t(`sections.${key}`) })}
      </Anchor>
      <PageHeader
        title={t("admin.checkout_fields.page_title", { section: t(`sections.${key}`) })}
        description={t("admin.checkout_fields.subtitle")}
      />
      {result?.errors.non_field_errors ? (
        <Callout color="red" role="alert">
          {result.errors.non_field_errors.map((code) => t(code)).join(" ")}
        </Callout>
      ) : null}
      {fields.length === 0 ? (
        <Text c="dimmed">{t("admin.checkout_fields.none")}</Text>
      ) : (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: "none" }}>
          {fields.map((field, index) => (
            <Card key={field.id} component="li" withBorder padding="md">
              <Stack gap="xs">
                <Group justify="space-between" align="flex-start" wrap="wrap">
                  <Stack gap={2}>
                    <Text fw={600}>{`${field.position}. ${label(field)}`}</Text>
                    <Group gap="xs">
                      <Text size="xs" c="dimmed" dir="ltr">
                        {field.name}
                      </Text>
                      <Badge variant="light" color="blue">
                        {t(`admin.checkout_fields.validators.${field.validator}`)}
                      </Badge>
                      <Badge variant="light" color={field.required ? "orange" : "gray"}>
                        {t(field.required ? "admin.checkout_fields.required" : "admin.checkout_fields.optional")}
                      </Badge>
                      <Badge variant="light" color={field.is_active ? "green" : "gray"}>
                        {t(field.is_active ? "admin.checkout_fields.active" : "admin.checkout_fields.inactive")}
                      </Badge>
                    </Group>
                  </Stack>
                  <Form method="post">
                    <input type="hidden" name="id" value={field.id} />
                    <Group gap={4} wrap="nowrap">
                      <Button
                        type="submit"
                        name="intent"
                        value="up"
                        size="compact-sm"
                        variant="default"
                        disabled={busy || index === 0}
                        aria-label={t("admin.checkout_fields.move_up", { name: label(field) })}
                      >
                        ↑
                      </Button>
                      <Button
                        type="submit"
                        name="intent"
                        value="down"
                        size="compact-sm"
                        variant="default"
                        disabled={busy || index === fields.length - 1}
                        aria-label={t("admin.checkout_fields.move_down", { name: label(field) })}
                      >
                        ↓
                      </Button>
                      <Button
                        type="submit"
                        name="intent"
                        value={field.is_active ? "deactivate" : "activate"}
                        size="compact-sm"
                        variant="default"
                        disabled={busy}
                      >
                        {t(field.is_active ? "admin.checkout_fields.deactivate" : "admin.checkout_fields.activate")}
                      </Button>
                    </Group>
                  </Form>
                </Group>
                <details open={result?.form === String(field.id)}>
                  <summary style={{ cursor: "pointer" }}>
                    {t("admin.checkout_fields.edit", { name: label(field) })}
                  </summary>
                  <FieldForm
                    field={field}
                    result={result?.form === String(field.id) ? result : undefined}
                    busy={busy}
                  />
                </details>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
      <Card withBorder padding="lg">
        <Text fw={600} component="h2" size="lg" mb="sm">
          {t("admin.checkout_fields.new")}
        </Text>
        {/* A new form once a field is added (with JavaScript the page stays mounted): what was typed is gone. */}
        <FieldForm key={fields.length} result={result?.form === "new" ? result : undefined} busy={busy} />
      </Card>
    </Stack>
  );
}

/** A field's settings, or a new field's (with its name, which never changes afterwards). */
function FieldForm({ field, result, busy }: { field?: CheckoutField; result?: ActionResult; busy: boolean }) {
  const { t } = useTranslation();
  const { validators, maxLength } = useLoaderData<typeof loader>();
  const error = (name: string) => result?.errors[name]?.map((code) => t(code)).join(" ") || undefined;
  // After a refused save, what was typed is shown again.
  const shown = (name: keyof CheckoutField) =>
    result ? (result.values[name] ?? "") : field ? String(field[name] ?? "") : undefined;
  const suffix = field ? `-${field.id}` : "-new";
  return (
    <Form method="post" noValidate>
      {field ? <input type="hidden" name="id" value={field.id} /> : null}
      <Stack mt="sm">
        {field ? null : (
          <TextInput
            id={`name${suffix}`}
            name="name"
            label={t("admin.checkout_fields.fields.name")}
            description={t("admin.checkout_fields.name_hint")}
            required
            dir="ltr"
            maxLength={40}
            defaultValue={shown("name")}
            error={error("name")}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            id={`label_en${suffix}`}
            name="label_en"
            label={t("admin.checkout_fields.fields.label_en")}
            required
            dir="ltr"
            maxLength={100}
            defaultValue={shown("label_en")}
            error={error("label_en")}
          />
          <TextInput
            id={`label_ar${suffix}`}
            name="label_ar"
            label={t("admin.checkout_fields.fields.label_ar")}
            required
            dir="rtl"
            maxLength={100}
            defaultValue={shown("label_ar")}
            error={error("label_ar")}
          />
          <TextInput
            id={`placeholder_en${suffix}`}
            name="placeholder_en"
            label={t("admin.checkout_fields.fields.placeholder_en")}
            dir="ltr"
            maxLength={100}
            defaultValue={shown("placeholder_en")}
            error={error("placeholder_en")}
          />
          <TextInput
            id={`placeholder_ar${suffix}`}
            name="placeholder_ar"
            label={t("admin.checkout_fields.fields.placeholder_ar")}
            dir="rtl"
            maxLength={100}
            defaultValue={shown("placeholder_ar")}
            error={error("placeholder_ar")}
          />
          <NativeSelect
            id={`validator${suffix}`}
            name="validator"
            label={t("admin.checkout_fields.fields.validator")}
            data={validators.map((validator) => ({
              value: validator,
              label: t(`admin.checkout_fields.validators.${validator}`),
            }))}
            defaultValue={shown("validator") || "text"}
            error={error("validator")}
          />
          <TextInput
            id={`max_length${suffix}`}
            name="max_length"
            type="number"
            inputMode="numeric"
            min={1}
            max={maxLength}
            label={t("admin.checkout_fields.fields.max_length")}
            description={field ? undefined : t("admin.checkout_fields.max_length_hint")}
            defaultValue={shown("max_length")}
            error={error("max_length")}
          />
        </SimpleGrid>
        <Checkbox
          id={`required${suffix}`}
          name="required"
          value="on"
          label={t("admin.checkout_fields.fields.required")}
          defaultChecked={result ? result.values.required === "on" : Boolean(field?.required)}
          error={error("required")}
        />
        <Group>
          <Button type="submit" name="intent" value={field ? "update" : "create"} loading={busy}>
            {t(field ? "admin.checkout_fields.save" : "admin.checkout_fields.add")}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}
