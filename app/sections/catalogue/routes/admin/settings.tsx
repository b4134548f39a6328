import { Button, Card, Checkbox, Group, Input, NativeSelect, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/settings";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { exponentOf } from "~/lib/money";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { AreaField, Field, Flag, useFieldError, type FormState } from "~/sections/catalogue/components/admin/fields";
import { issuesByField, type FieldErrors } from "~/sections/catalogue/domain/fields";
import {
  bannerImageUrl,
  IMAGE_MAX_BYTES,
  isOwnImageKey,
  putCatalogueImage,
} from "~/sections/catalogue/domain/images.server";
import { CatalogueSettingsSchema } from "~/sections/catalogue/domain/settings-schema";
import { loadCatalogueSettings, saveCatalogueSettings } from "~/sections/catalogue/domain/settings.server";
import { merchantCurrencies } from "~/sections/catalogue/domain/shop-money.server";
import { formFieldErrors } from "~/sections/catalogue/presentation/errors.server";
import { formObject, withFlags } from "~/sections/catalogue/presentation/forms.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إعدادات المتجر" : "Shop settings" }];
}

const need = { feature: "settings", permission: "change_product" } as const;

/** The shop's configuration (public spec: currency, showBanner, label_store, decimal_places, terms) and its banner. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, need);
  const db = getDbFrom(context);
  const [settings, currencies, defaults] = await Promise.all([
    loadCatalogueSettings(db, auth.user.merchantId),
    merchantCurrencies(db, auth.user.merchantId),
    loadMerchantDefaults(db, auth.user.merchantId),
  ]);
  const currency = settings.currency ?? defaults.currency;
  return {
    lang,
    canChange,
    currencies: currencies.map((code) => ({ value: code, label: code })),
    exponent: exponentOf(currency),
    bannerImage: settings.banner.image,
    values: {
      currency,
      show_banner: settings.show_banner,
      label_store_en: settings.label_store_en,
      label_store_ar: settings.label_store_ar,
      decimal_places: settings.decimal_places === null ? "" : String(settings.decimal_places),
      terms_en: settings.terms_en,
      terms_ar: settings.terms_ar,
      banner_title_en: settings.banner.title_en,
      banner_title_ar: settings.banner.title_ar,
      banner_subtitle_en: settings.banner.subtitle_en,
      banner_subtitle_ar: settings.banner.subtitle_ar,
      banner_link: settings.banner.link ?? "",
    } as Record<string, unknown>,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, actor } = await guardCataloguePage(context, request, params, need);
  const db = getDbFrom(context);
  const merchantId = auth.user.merchantId;
  if (Number(request.headers.get("Content-Length") ?? 0) > IMAGE_MAX_BYTES + 256 * 1024) {
    return data(
      {
        values: {},
        pending: null,
        errors: formFieldErrors(
          {
            banner_image: [
              { code: "catalogue_admin.errors.image_too_large", params: { megabytes: IMAGE_MAX_BYTES / 1024 / 1024 } },
            ],
          },
          lang,
        ),
      },
      { status: 400 },
    );
  }
  const form = await readFormData(request);
  // A new picture is stored first and its key rides along in the form, so a form refused for another field keeps it.
  const carried = form.get("_pending_banner");
  let pendingBanner = isOwnImageKey(merchantId, "banner", carried) ? carried : null;
  let uploadErrors: FieldErrors = {};
  const file = form.get("banner_image");
  if (file instanceof File && file.size > 0) {
    const stored = await putCatalogueImage(merchantId, "banner", file);
    if (stored.ok) pendingBanner = stored.key;
    else
      uploadErrors = { banner_image: [{ code: stored.error, params: { megabytes: IMAGE_MAX_BYTES / 1024 / 1024 } }] };
  }
  const values = {
    label_store_en: "",
    label_store_ar: "",
    decimal_places: "",
    terms_en: "",
    terms_ar: "",
    banner_title_en: "",
    banner_title_ar: "",
    banner_subtitle_en: "",
    banner_subtitle_ar: "",
    banner_link: "",
    ...withFlags(formObject(form), ["show_banner", "remove_banner_image"]),
  };
  const pending: { key: string; url: string } | null = pendingBanner
    ? { key: pendingBanner, url: bannerImageUrl(pendingBanner) }
    : null;
  const refuse = (errors: FieldErrors) =>
    data({ values, pending, errors: formFieldErrors(errors, lang) }, { status: 400 });
  const parsed = CatalogueSettingsSchema.safeParse(values);
  if (!parsed.success) return refuse({ ...issuesByField(parsed.error.issues), ...uploadErrors });
  if (Object.keys(uploadErrors).length) return refuse(uploadErrors);
  const bannerImage = pending?.url;
  const [currencies, defaults] = await Promise.all([
    merchantCurrencies(db, merchantId),
    loadMerchantDefaults(db, merchantId),
  ]);
  const saved = await saveCatalogueSettings(db, {
    merchantId,
    actor,
    input: parsed.data,
    currencies,
    defaultCurrency: defaults.currency,
    bannerImage,
    ip: context.get(clientAddressContext),
  });
  if (!saved.ok) return refuse(saved.errors);
  return redirect(`/${lang}/catalogue/settings`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "catalogue_admin.saved" }) },
  });
}

export default function Settings() {
  const { t } = useTranslation();
  const { lang, canChange, currencies, exponent, bannerImage, values } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  const pending = reply && "pending" in reply ? (reply.pending as { key: string; url: string } | null) : null;
  const currencyError = useFieldError(state, "currency");
  const placesError = useFieldError(state, "decimal_places");
  const imageError = useFieldError(state, "banner_image");
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={t("catalogue_admin.settings.title")} />
      <AdminNav lang={lang} canChange={canChange} current="settings" />
      <Card withBorder padding="lg">
        <Form method="post" encType="multipart/form-data" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <FormErrors errors={state.errors.non_field_errors} />
            <Title order={2} fz="h4">
              {t("catalogue_admin.settings.shop")}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                name="currency"
                id="f-currency"
                label={t("catalogue_admin.settings.currency")}
                description={t("catalogue_admin.settings.currency_help")}
                defaultValue={String(state.values.currency ?? "")}
                data={currencies}
                error={currencyError}
              />
              <NativeSelect
                name="decimal_places"
                id="f-decimal_places"
                label={t("catalogue_admin.settings.decimal_places")}
                description={t("catalogue_admin.settings.decimal_places_help")}
                defaultValue={String(state.values.decimal_places ?? "")}
                error={placesError}
                data={[
                  { value: "", label: t("catalogue_admin.settings.currency_decimals", { places: exponent }) },
                  ...Array.from({ length: exponent + 1 }, (_, places) => ({
                    value: String(places),
                    label: String(places),
                  })),
                ]}
              />
              <Field
                state={state}
                name="label_store_en"
                label={t("catalogue_admin.settings.label_store_en")}
                description={t("catalogue_admin.settings.label_store_help")}
                dir="ltr"
              />
              <Field
                state={state}
                name="label_store_ar"
                label={t("catalogue_admin.settings.label_store_ar")}
                dir="rtl"
              />
              <AreaField state={state} name="terms_en" label={t("catalogue_admin.settings.terms_en")} dir="ltr" />
              <AreaField state={state} name="terms_ar" label={t("catalogue_admin.settings.terms_ar")} dir="rtl" />
            </SimpleGrid>
            <Title order={2} fz="h4">
              {t("catalogue_admin.settings.banner")}
            </Title>
            <Flag state={state} name="show_banner" label={t("catalogue_admin.settings.show_banner")} />
            {bannerImage ? (
              <Group align="center">
                <img
                  src={bannerImage}
                  alt={t("catalogue_admin.settings.banner_image_current")}
                  height={80}
                  style={{ maxWidth: 320, objectFit: "cover", borderRadius: 4 }}
                />
                <Checkbox
                  name="remove_banner_image"
                  value="on"
                  label={t("catalogue_admin.settings.remove_banner_image")}
                />
              </Group>
            ) : null}
            {pending ? (
              <Group align="center">
                <img
                  src={pending.url}
                  alt={t("catalogue_admin.settings.banner_image_pending")}
                  height={80}
                  style={{ maxWidth: 320, objectFit: "cover", borderRadius: 4 }}
                />
                <Text size="sm">{t("catalogue_admin.settings.banner_image_pending")}</Text>
                <input type="hidden" name="_pending_banner" value={pending.key} />
              </Group>
            ) : null}
            <Input.Wrapper
              label={t("catalogue_admin.settings.banner_image")}
              description={t("catalogue_admin.settings.banner_image_help")}
              error={imageError}
              id="banner-image"
            >
              <input
                id="banner-image"
                type="file"
                name="banner_image"
                accept="image/jpeg,image/png,image/webp"
                aria-invalid={imageError ? true : undefined}
                style={{ display: "block", marginTop: 6 }}
              />
            </Input.Wrapper>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field
                state={state}
                name="banner_title_en"
                label={t("catalogue_admin.settings.banner_title_en")}
                dir="ltr"
              />
              <Field
                state={state}
                name="banner_title_ar"
                label={t("catalogue_admin.settings.banner_title_ar")}
                dir="rtl"
              />
              <Field
                state={state}
                name="banner_subtitle_en"
                label={t("catalogue_admin.settings.banner_subtitle_en")}
                dir="ltr"
              />
              <Field
                state={state}
                name="banner_subtitle_ar"
                label={t("catalogue_admin.settings.banner_subtitle_ar")}
                dir="rtl"
              />
              <Field
                state={state}
                name="banner_link"
                label={t("catalogue_admin.settings.banner_link")}
                description={t("catalogue_admin.settings.banner_link_help")}
                dir="ltr"
              />
            </SimpleGrid>
            <Group>
              <Button type="submit">{t("catalogue_admin.save")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
