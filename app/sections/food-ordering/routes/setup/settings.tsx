import { Button, Card, Fieldset, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/settings";
import { PageHeader } from "~/components/page-header";
import { Field, Flag, type FormState } from "~/sections/food-ordering/components/setup/fields";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { FoodSettingsSchema } from "~/sections/food-ordering/domain/settings-schema";
import { loadFoodSettings, saveFoodSettings } from "~/sections/food-ordering/domain/settings.server";
import { issuesByField } from "~/sections/food-ordering/domain/setup-fields";
import { formFieldErrors } from "~/sections/food-ordering/presentation/setup-errors.server";
import { formObject, withFlags } from "~/sections/food-ordering/presentation/setup-forms.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إعدادات القائمة" : "Menu settings" }];
}

const need = { feature: "product_bulk_create", permission: "change_order" } as const;

/** The menu page's configuration, the header's banner text and the banners (promoted dishes are marked on each dish). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canSetUp } = await guardSetupPage(context, request, params, need);
  const settings = await loadFoodSettings(getDbFrom(context), auth.user.merchantId);
  return {
    lang,
    canSetUp,
    values: {
      menu_title_en: settings.menu_page.title_en,
      menu_title_ar: settings.menu_page.title_ar,
      show_images: settings.menu_page.show_images,
      banner_text_en: settings.header.banner_text_en,
      banner_text_ar: settings.header.banner_text_ar,
      banners: settings.banners,
    } as Record<string, unknown>,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardSetupPage(context, request, params, need);
  const form = await readFormData(request);
  const values = withFlags(formObject(form), ["show_images"]);
  const parsed = FoodSettingsSchema.safeParse({
    menu_title_en: "",
    menu_title_ar: "",
    banner_text_en: "",
    banner_text_ar: "",
    banners: [],
    ...values,
  });
  if (!parsed.success)
    return data({ values, errors: formFieldErrors(issuesByField(parsed.error.issues), lang) }, { status: 400 });
  await saveFoodSettings(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    input: parsed.data,
    ip: context.get(clientAddressContext),
  });
  return redirect(`/${lang}/food-ordering/settings`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "food_setup.saved" }) },
  });
}

export default function Settings() {
  const { t } = useTranslation();
  const { lang, canSetUp, values } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  const banners = (Array.isArray(state.values.banners) ? state.values.banners.length : 0) + 1;
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={t("food_setup.settings.title")} />
      <SetupNav lang={lang} canSetUp={canSetUp} current="settings" />
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <Title order={2} fz="h4">
              {t("food_setup.settings.menu_page")}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field state={state} name="menu_title_en" label={t("food_setup.settings.menu_title_en")} dir="ltr" />
              <Field state={state} name="menu_title_ar" label={t("food_setup.settings.menu_title_ar")} dir="rtl" />
            </SimpleGrid>
            <Flag state={state} name="show_images" label={t("food_setup.settings.show_images")} />
            <Title order={2} fz="h4">
              {t("food_setup.settings.header")}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field state={state} name="banner_text_en" label={t("food_setup.settings.banner_text_en")} dir="ltr" />
              <Field state={state} name="banner_text_ar" label={t("food_setup.settings.banner_text_ar")} dir="rtl" />
            </SimpleGrid>
            <Title order={2} fz="h4">
              {t("food_setup.settings.banners")}
            </Title>
            <Text size="sm" c="dimmed">
              {t("food_setup.settings.banners_help")}
            </Text>
            {Array.from({ length: banners }, (_, index) => (
              <Fieldset key={index} legend={t("food_setup.settings.banner", { number: index + 1 })}>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <Field
                    state={state}
                    name={`banners[${index}].image`}
                    label={t("food_setup.fields.image")}
                    dir="ltr"
                  />
                  <Field
                    state={state}
                    name={`banners[${index}].title_en`}
                    label={t("food_setup.settings.title_en")}
                    dir="ltr"
                  />
                  <Field
                    state={state}
                    name={`banners[${index}].title_ar`}
                    label={t("food_setup.settings.title_ar")}
                    dir="rtl"
                  />
                </SimpleGrid>
              </Fieldset>
            ))}
            <Text size="sm" c="dimmed">
              {t("food_setup.settings.promoted_help")}
            </Text>
            <Group>
              <Button type="submit">{t("food_setup.save")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
