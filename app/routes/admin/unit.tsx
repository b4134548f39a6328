import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/unit";
import { FormErrors, TextField } from "~/components/forms";
import { BrandingFields } from "~/components/admin/branding-fields";
import { PageHeader } from "~/components/page-header";
import { UnitSchema } from "~/domain/merchants/unit-schema";
import { loadUnit, makeDefault, updateUnit } from "~/domain/merchants/units-admin.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { recordId } from "~/web/record-id";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** The page sends every field; a box left unticked is not sent at all. */
const PageSchema = UnitSchema.extend({
  show_unit_title: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الوحدة" : "Unit" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const id = recordId(params.id);
  const unit = id === null ? undefined : await loadUnit(getDbFrom(context), auth.user.merchantId, id);
  if (!unit) notFound();
  return { unit };
}

/** `intent`: save (every field of the unit) or default (make it the merchant's default unit). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) notFound();
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const change = {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    ip: context.get(clientAddressContext),
    id,
  };
  const here = `/${params.lang}/admin/units/${id}`;
  const done = (message: string) =>
    redirect(here, { headers: { "Set-Cookie": flashCookie({ kind: "success", message }) } });
  const intent = String(form.get("intent") ?? "");
  if (intent === "save") {
    // Raw strings: an emptied field is sent as "" and clears it.
    const submission = parseWithZod(form, { schema: PageSchema, disableAutoCoercion: true });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    const saved = await updateUnit(db, { ...change, changes: submission.value });
    if (!saved.ok && saved.code === "admin.units.errors.not_found") notFound();
    if (!saved.ok)
      return data(submission.reply({ fieldErrors: { [saved.field ?? ""]: [saved.code] } }), { status: 400 });
    return done(saved.changed.length ? "admin.units.saved" : "admin.units.unchanged");
  }
  if (intent === "default") {
    const made = await makeDefault(db, change);
    if (!made.ok) notFound();
    return done("admin.units.made_default");
  }
  throw data({ reason: "unreadable_form" }, { status: 400 });
}

export default function UnitPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang;
  const { unit } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `unit-${unit.id}`,
    lastResult,
    defaultValue: { ...unit, show_unit_title: unit.show_unit_title ? "on" : undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PageSchema, disableAutoCoercion: true }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const label = (field: string) => t(`admin.units.fields.${field}`);
  return (
    <Stack maw={860}>
      <Anchor component={Link} to={`/${lang}/admin/units`} size="sm">
        {t("admin.units.back")}
      </Anchor>
      <PageHeader title={unit.name} description={t("admin.units.unit_subtitle")} />
      <Card withBorder padding="lg">
        <Group justify="space-between" wrap="wrap">
          {unit.is_default ? (
            <Badge color="green" variant="light">
              {t("admin.units.default_badge")}
            </Badge>
          ) : (
            <Text size="sm">{t("admin.units.not_default")}</Text>
          )}
          {unit.is_default ? (
            <Text size="sm" c="dimmed">
              {t("admin.units.default_note")}
            </Text>
          ) : (
            <Form method="post">
              <Button type="submit" name="intent" value="default" variant="light" size="sm" disabled={busy}>
                {t("admin.units.make_default")}
              </Button>
            </Form>
          )}
        </Group>
      </Card>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        <Stack gap="lg">
          <FormErrors errors={form.errors} id={form.errorId} />
          <Card withBorder padding="lg">
            <Stack gap="md">
              <TextField
                field={fields.name}
                label={label("name")}
                description={t("admin.units.name_hint")}
                required
                maxLength={60}
              />
              <BrandingFields
                fields={{
                  titleEn: fields.title_en,
                  titleAr: fields.title_ar,
                  headerColor: fields.header_color,
                  website: fields.website,
                  showTitle: fields.show_unit_title,
                  instagram: fields.instagram_url,
                  twitter: fields.twitter_url,
                  facebook: fields.facebook_url,
                  termsEn: fields.terms_en,
                  termsAr: fields.terms_ar,
                }}
                label={label}
              />
            </Stack>
          </Card>
          <Group>
            <Button type="submit" loading={busy}>
              {t("admin.units.save")}
            </Button>
          </Group>
        </Stack>
      </Form>
      <Card withBorder padding="lg">
        <Form
          method="post"
          action={`/${lang}/admin/units/${unit.id}/logo`}
          encType="multipart/form-data"
          reloadDocument
        >
          <Stack gap="xs">
            <Title order={2} fz="h4">
              {t("admin.units.logo")}
            </Title>
            <Text size="sm" c="dimmed">
              {t(unit.is_default ? "admin.units.logo_note_default" : "admin.units.logo_note")}
            </Text>
            {unit.logo_url ? (
              <img src={unit.logo_url} alt={t("admin.images.current_logo")} className="brand-image-preview" />
            ) : null}
            <label className="file-label">
              <span>{t("admin.images.choose_logo")}</span>
              <input type="file" name="file" accept="image/png,image/jpeg,image/webp" required />
            </label>
            <Text size="xs" c="dimmed">
              {t("admin.images.hint_logo")}
            </Text>
            <Button type="submit" variant="default" size="sm" w="fit-content">
              {t("admin.images.upload_logo")}
            </Button>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
