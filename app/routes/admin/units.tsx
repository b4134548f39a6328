import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/units";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FormErrors, TextField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { NewUnitSchema } from "~/domain/merchants/unit-schema";
import { createUnit, listUnits, makeDefault } from "~/domain/merchants/units-admin.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الوحدات" : "Units" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  return { units: await listUnits(getDbFrom(context), auth.user.merchantId) };
}

/** `intent`: add (a new unit, then its page) or default (`id`: make that unit the default). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const change = {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    ip: context.get(clientAddressContext),
  };
  const intent = String(form.get("intent") ?? "");
  if (intent === "add") {
    // Raw strings: an empty field is "" and is refused or cleared by the schema, never coerced.
    const submission = parseWithZod(form, { schema: NewUnitSchema, disableAutoCoercion: true });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const created = await createUnit(db, { ...change, unit: submission.value });
    if (!created.ok)
      return data(submission.reply({ fieldErrors: { [created.field ?? ""]: [created.code] } }), { status: 400 });
    return redirect(`/${params.lang}/admin/units/${created.unit.id}`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.units.added" }) },
    });
  }
  if (intent === "default") {
    const id = recordId(String(form.get("id") ?? ""));
    const made = id === null ? null : await makeDefault(db, { ...change, id });
    if (!made?.ok) notFound();
    return redirect(`/${params.lang}/admin/units`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.units.made_default" }) },
    });
  }
  throw data({ reason: "unreadable_form" }, { status: 400 });
}

export default function UnitsPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { units } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "new-unit",
    lastResult,
    defaultValue: { header_color: "#ffffff" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewUnitSchema, disableAutoCoercion: true }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  type Unit = (typeof units)[number];
  const columns: DataColumn<Unit>[] = [
    {
      key: "name",
      header: t("admin.units.fields.name"),
      cell: (unit) => (
        <Anchor component={Link} to={`/${params.lang}/admin/units/${unit.id}`} fw={600} size="sm">
          {unit.name}
        </Anchor>
      ),
    },
    { key: "title_en", header: t("admin.units.fields.title_en"), cell: (unit) => <bdi dir="ltr">{unit.title_en}</bdi> },
    { key: "title_ar", header: t("admin.units.fields.title_ar"), cell: (unit) => <bdi dir="rtl">{unit.title_ar}</bdi> },
    {
      key: "default",
      header: t("admin.units.default"),
      nowrap: true,
      cell: (unit) =>
        unit.is_default ? (
          <Badge color="green" variant="light">
            {t("admin.units.default_badge")}
          </Badge>
        ) : (
          <Form method="post">
            <input type="hidden" name="id" value={unit.id} />
            <Button
              type="submit"
              name="intent"
              value="default"
              size="compact-sm"
              variant="default"
              disabled={busy}
              aria-label={t("admin.units.make_default_named", { name: unit.name })}
            >
              {t("admin.units.make_default")}
            </Button>
          </Form>
        ),
    },
  ];
  return (
    <Stack maw={1000}>
      <PageHeader title={t("admin.units.title")} description={t("admin.units.subtitle")} />
      <DataTable
        rows={units}
        rowKey={(unit) => unit.id}
        empty={t("admin.units.none")}
        minWidth={640}
        hover={false}
        columns={columns}
      />
      <Card withBorder padding="lg">
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="add" />
          <Stack>
            <Title order={2} fz="h4">
              {t("admin.units.new")}
            </Title>
            <FormErrors errors={form.errors} id={form.errorId} />
            <TextField
              field={fields.name}
              label={t("admin.units.fields.name")}
              description={t("admin.units.name_hint")}
              required
              maxLength={60}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextField
                field={fields.title_en}
                label={t("admin.units.fields.title_en")}
                required
                maxLength={120}
                dir="ltr"
              />
              <TextField
                field={fields.title_ar}
                label={t("admin.units.fields.title_ar")}
                required
                maxLength={120}
                dir="rtl"
              />
            </SimpleGrid>
            <TextField
              field={fields.header_color}
              label={t("admin.units.fields.header_color")}
              description={t("admin.profile.header_color_hint")}
              required
              maxLength={11}
              dir="ltr"
            />
            <Text size="sm" c="dimmed">
              {t("admin.units.new_note")}
            </Text>
            <Group>
              <Button type="submit" loading={busy}>
                {t("admin.units.create")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
