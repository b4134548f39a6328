import { Anchor, Button, Card, Group, SimpleGrid, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/category";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { toDecimalString } from "~/lib/money";
import { AreaField, Field, Flag, type FormState } from "~/sections/food-ordering/components/setup/fields";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { CategorySchema } from "~/sections/food-ordering/domain/menu-schema";
import { deleteCategory, getCategory, saveCategory } from "~/sections/food-ordering/domain/menu-admin.server";
import { idOf, issuesByField } from "~/sections/food-ordering/domain/setup-fields";
import { formFieldErrors } from "~/sections/food-ordering/presentation/setup-errors.server";
import { formObject, withFlags } from "~/sections/food-ordering/presentation/setup-forms.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "فئة القائمة" : "Menu category" }];
}

const need = { feature: "product_bulk_create", permission: "change_order" } as const;

function categoryIdOf(params: { id?: string }) {
  return params.id === undefined ? null : (idOf(params.id) ?? notFound());
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canSetUp } = await guardSetupPage(context, request, params, need);
  const db = getDbFrom(context);
  const id = categoryIdOf(params);
  const { currency } = await loadMerchantDefaults(db, auth.user.merchantId);
  const category = id === null ? undefined : await getCategory(db, auth.user.merchantId, id);
  if (id !== null && !category) notFound();
  const values: Record<string, unknown> = category
    ? {
        ...category,
        image: category.image_path,
        is_active: Boolean(category.is_active),
        is_catering: Boolean(category.is_catering),
        service_charge: toDecimalString(Number(category.service_charge), currency),
      }
    : { is_active: true, position: 0, min_plates: 0 };
  return { lang, id, canSetUp, values };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardSetupPage(context, request, params, need);
  const db = getDbFrom(context);
  const id = categoryIdOf(params);
  const form = await readFormData(request);
  const actor = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const menu = `/${lang}/food-ordering/menu`;
  if (form.get("intent") === "delete") {
    const removed =
      id === null
        ? { ok: false as const }
        : await deleteCategory(db, { merchantId: auth.user.merchantId, actor, id, ip });
    if (!removed.ok) notFound();
    return redirect(menu, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: removed.deactivated ? "food_setup.deactivated" : "food_setup.deleted",
        }),
      },
    });
  }
  const values = withFlags(formObject(form), ["is_active", "is_catering"]);
  const parsed = CategorySchema.safeParse({ description_en: "", description_ar: "", image: "", ...values });
  if (!parsed.success)
    return data({ values, errors: formFieldErrors(issuesByField(parsed.error.issues), lang) }, { status: 400 });
  const saved = await saveCategory(db, {
    merchantId: auth.user.merchantId,
    actor,
    input: parsed.data,
    id: id ?? undefined,
    ip,
  });
  if (!saved.ok) {
    if (saved.notFound) notFound();
    return data({ values, errors: formFieldErrors(saved.errors, lang) }, { status: 400 });
  }
  return redirect(menu, { headers: { "Set-Cookie": flashCookie({ kind: "success", message: "food_setup.saved" }) } });
}

export default function Category() {
  const { t } = useTranslation();
  const { lang, id, canSetUp, values } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={id === null ? t("food_setup.menu.new_category") : t("food_setup.menu.edit_category")} />
      <SetupNav lang={lang} canSetUp={canSetUp} current="menu" />
      <Anchor component={Link} to={`/${lang}/food-ordering/menu`}>
        {t("food_setup.menu.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <FormErrors errors={state.errors.non_field_errors} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field state={state} name="name_en" label={t("food_setup.fields.name_en")} dir="ltr" required />
              <Field state={state} name="name_ar" label={t("food_setup.fields.name_ar")} dir="rtl" required />
              <AreaField state={state} name="description_en" label={t("food_setup.fields.description_en")} dir="ltr" />
              <AreaField state={state} name="description_ar" label={t("food_setup.fields.description_ar")} dir="rtl" />
            </SimpleGrid>
            <Field state={state} name="image" label={t("food_setup.fields.image")} dir="ltr" />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Field
                state={state}
                name="position"
                label={t("food_setup.fields.position")}
                inputMode="numeric"
                dir="ltr"
              />
              <Field
                state={state}
                name="min_plates"
                label={t("food_setup.menu.min_plates")}
                inputMode="numeric"
                dir="ltr"
              />
              <Field
                state={state}
                name="service_charge"
                label={t("food_setup.menu.service_charge")}
                inputMode="decimal"
                dir="ltr"
              />
            </SimpleGrid>
            <Group>
              <Flag state={state} name="is_active" label={t("food_setup.fields.is_active")} />
              <Flag state={state} name="is_catering" label={t("food_setup.menu.catering")} />
            </Group>
            <Group>
              <Button type="submit" name="intent" value="save">
                {t("food_setup.save")}
              </Button>
              {id !== null ? (
                <Button type="submit" name="intent" value="delete" variant="subtle" color="red">
                  {t("food_setup.delete")}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
