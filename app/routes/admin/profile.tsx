import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/profile";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms";
import { BrandingFields } from "~/components/admin/branding-fields";
import { PageHeader } from "~/components/page-header";
import { MerchantProfileSchema } from "~/domain/merchants/profile-schema";
import { COUNTRIES, countryName } from "~/lib/countries";
import { isLanguage } from "~/lib/i18n";
import { SUPPORTED_CURRENCIES } from "~/lib/money";
import { loadMerchantProfile, updateMerchantProfile } from "~/domain/merchants/profile.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

/** The page sends every field; a box left unticked is not sent at all. */
const PageSchema = MerchantProfileSchema.extend({
  show_unit_title: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "ملف التاجر" : "Merchant profile" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const db = getDbFrom(context);
  const [profile, images] = await Promise.all([
    loadMerchantProfile(db, auth.user.merchantId),
    db
      .selectFrom("merchants")
      .select(["logo_url", "favicon_url"])
      .where("id", "=", auth.user.merchantId)
      .executeTakeFirstOrThrow(),
  ]);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const countries = COUNTRIES.map((code) => ({ value: code, label: countryName(code, lang) }));
  return { profile, images, countries, currencies: [...SUPPORTED_CURRENCIES] };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  // Raw strings: an emptied field is sent as "" and clears it.
  const submission = parseWithZod(await readFormData(request), { schema: PageSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const changed = await updateMerchantProfile(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    changes: submission.value,
    ip: context.get(clientAddressContext),
  });
  const message = changed.length ? "admin.profile.saved" : "admin.profile.unchanged";
  return redirect(`/${params.lang}/admin/profile`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
  });
}

export default function MerchantProfilePage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang;
  const { profile, images, countries, currencies } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "merchant-profile",
    lastResult,
    defaultValue: { ...profile, show_unit_title: profile.show_unit_title ? "on" : undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PageSchema, disableAutoCoercion: true }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const label = (field: string) => t(`admin.profile.fields.${field}`);
  return (
    <Stack maw={860}>
      <PageHeader title={t("admin.profile.title")} description={t("admin.profile.subtitle")} />
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="lg">
          <FormErrors errors={form.errors} id={form.errorId} />
          <Card withBorder padding="lg">
            <Stack gap="md">
              <Title order={2} fz="h4">
                {t("admin.profile.merchant")}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextField field={fields.title_en} label={label("title_en")} required maxLength={120} dir="ltr" />
                <TextField field={fields.title_ar} label={label("title_ar")} required maxLength={120} dir="rtl" />
              </SimpleGrid>
              <TextField field={fields.subheader} label={label("subheader")} maxLength={200} />
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextField
                  field={fields.website_url}
                  label={label("website_url")}
                  type="url"
                  maxLength={300}
                  dir="ltr"
                  placeholder="https://"
                />
                <TextField
                  field={fields.contact_email}
                  label={label("contact_email")}
                  type="email"
                  maxLength={254}
                  dir="ltr"
                />
                <TextField
                  field={fields.contact_phone}
                  label={label("contact_phone")}
                  type="tel"
                  maxLength={20}
                  dir="ltr"
                  placeholder="+965 2222 3333"
                />
              </SimpleGrid>
              <Text size="sm" c="dimmed">
                {t("admin.profile.contact_note")}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <SelectField
                  field={fields.country_code}
                  label={label("country_code")}
                  description={t("admin.profile.country_hint")}
                  options={countries}
                  required
                />
                <SelectField
                  field={fields.currency_code}
                  label={label("currency_code")}
                  description={t("admin.profile.currency_hint")}
                  options={currencies.map((code) => ({ value: code, label: code }))}
                  required
                />
              </SimpleGrid>
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Stack gap="md">
              <Title order={2} fz="h4">
                {t("admin.profile.branding")}
              </Title>
              <Text size="sm" c="dimmed">
                {t("admin.profile.branding_note")}
              </Text>
              <BrandingFields
                fields={{
                  titleEn: fields.unit_title_en,
                  titleAr: fields.unit_title_ar,
                  headerColor: fields.header_color,
                  website: fields.unit_website,
                  showTitle: fields.show_unit_title,
                  instagram: fields.instagram_url,
                  twitter: fields.twitter_url,
                  facebook: fields.facebook_url,
                  termsEn: fields.terms_en,
                  termsAr: fields.terms_ar,
                }}
                label={label}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextareaField
                  field={fields.disclaimer_en}
                  label={label("disclaimer_en")}
                  description={t("admin.profile.disclaimer_hint")}
                  maxLength={500}
                  autosize
                  minRows={2}
                  dir="ltr"
                />
                <TextareaField
                  field={fields.disclaimer_ar}
                  label={label("disclaimer_ar")}
                  description={t("admin.profile.disclaimer_hint")}
                  maxLength={500}
                  autosize
                  minRows={2}
                  dir="rtl"
                />
              </SimpleGrid>
            </Stack>
          </Card>
          <Group>
            <Button type="submit" loading={busy}>
              {t("admin.profile.save")}
            </Button>
          </Group>
        </Stack>
      </Form>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} fz="h4">
            {t("admin.images.title")}
          </Title>
          <Text size="sm" c="dimmed">
            {t("admin.images.note")}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {(["logo", "favicon"] as const).map((image) => (
              <Form
                key={image}
                method="post"
                action={`/${lang}/admin/profile/images`}
                encType="multipart/form-data"
                reloadDocument
              >
                <input type="hidden" name="image" value={image} />
                <Stack gap="xs">
                  <Text fw={600} size="sm">
                    {t(`admin.images.${image}`)}
                  </Text>
                  {images[`${image}_url`] ? (
                    <img
                      src={images[`${image}_url`]!}
                      alt={t(`admin.images.current_${image}`)}
                      className="brand-image-preview"
                    />
                  ) : null}
                  <label className="file-label">
                    <span>{t(`admin.images.choose_${image}`)}</span>
                    <input
                      type="file"
                      name="file"
                      accept={
                        image === "favicon"
                          ? "image/png,image/x-icon,image/vnd.microsoft.icon,image/jpeg,image/webp"
                          : "image/png,image/jpeg,image/webp"
                      }
                      required
                    />
                  </label>
                  <Text size="xs" c="dimmed">
                    {t(`admin.images.hint_${image}`)}
                  </Text>
                  <Button type="submit" variant="default" size="sm" w="fit-content">
                    {t(`admin.images.upload_${image}`)}
                  </Button>
                </Stack>
              </Form>
            ))}
          </SimpleGrid>
        </Stack>
      </Card>
    </Stack>
  );
}
