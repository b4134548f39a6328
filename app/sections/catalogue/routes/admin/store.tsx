import {
  Anchor,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  Radio,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/store";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { AreaField, Field, Flag, useFieldError, type FormState } from "~/sections/catalogue/components/admin/fields";
import { idOf, issuesByField } from "~/sections/catalogue/domain/fields";
import { StoreSchema } from "~/sections/catalogue/domain/store-schema";
import {
  deleteStore,
  getStore,
  loadStoreProducts,
  saveStore,
  serializeStore,
} from "~/sections/catalogue/domain/stores-admin.server";
import { formFieldErrors } from "~/sections/catalogue/presentation/errors.server";
import { formObject, withFlags } from "~/sections/catalogue/presentation/forms.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "متجر" : "Store" }];
}

function storeIdOf(params: { id?: string }) {
  return params.id === undefined ? null : (idOf(params.id) ?? notFound());
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, {
    feature: "stores",
    permission: "view_product",
  });
  const db = getDbFrom(context);
  const id = storeIdOf(params);
  const store = id === null ? undefined : await getStore(db, auth.user.merchantId, id);
  if (id !== null && !store) notFound();
  const serialized = store
    ? serializeStore(store, (await loadStoreProducts(db, [store.id])).get(store.id), lang)
    : null;
  const values: Record<string, unknown> = serialized
    ? { ...serialized, carries: serialized.products ? "chosen" : "all", products: serialized.products ?? [] }
    : { is_active: true, carries: "all", products: [] };
  // The choice lists the merchant's products by name (a shop of thousands is better served by the API).
  const products = await db
    .selectFrom("catalogue_products")
    .select(["slug", "name_en", "name_ar"])
    .where("merchant_id", "=", auth.user.merchantId)
    .orderBy("position")
    .orderBy("id")
    .limit(2000)
    .execute();
  return {
    lang,
    id,
    canChange,
    values,
    products: products.map((product) => ({
      slug: product.slug,
      name: lang === "ar" ? product.name_ar : product.name_en,
    })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, actor } = await guardCataloguePage(context, request, params, {
    feature: "stores",
    permission: "change_product",
  });
  const db = getDbFrom(context);
  const id = storeIdOf(params);
  const form = await readFormData(request);
  const ip = context.get(clientAddressContext);
  const list = `/${lang}/catalogue/stores`;
  if (form.get("intent") === "delete") {
    const removed =
      id === null ? { ok: false as const } : await deleteStore(db, { merchantId: auth.user.merchantId, actor, id, ip });
    if (!removed.ok) notFound();
    return redirect(list, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: removed.deactivated ? "catalogue_admin.deactivated" : "catalogue_admin.deleted",
        }),
      },
    });
  }
  const chosen = form.getAll("products").filter((value): value is string => typeof value === "string");
  const carries = form.get("carries") === "chosen" ? "chosen" : "all";
  const values = {
    address_en: "",
    address_ar: "",
    phone: "",
    ...withFlags(formObject(form), ["is_active"]),
    carries,
    products: chosen,
  };
  if (carries === "chosen" && chosen.length === 0)
    return data(
      { values, errors: formFieldErrors({ products: [{ code: "catalogue_admin.errors.choose_products" }] }, lang) },
      { status: 400 },
    );
  const parsed = StoreSchema.safeParse({ ...values, products: carries === "chosen" ? chosen : null });
  if (!parsed.success)
    return data({ values, errors: formFieldErrors(issuesByField(parsed.error.issues), lang) }, { status: 400 });
  const saved = await saveStore(db, {
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
  return redirect(list, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "catalogue_admin.saved" }) },
  });
}

export default function Store() {
  const { t } = useTranslation();
  const { lang, id, canChange, values, products } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  const chosen = new Set(Array.isArray(state.values.products) ? (state.values.products as string[]) : []);
  const productsError = useFieldError(state, "products");
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={id === null ? t("catalogue_admin.stores.new") : t("catalogue_admin.stores.edit")} />
      <AdminNav lang={lang} canChange={canChange} current="stores" />
      <Anchor component={Link} to={`/${lang}/catalogue/stores`}>
        {t("catalogue_admin.stores.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <FormErrors errors={state.errors.non_field_errors} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field state={state} name="name_en" label={t("catalogue_admin.fields.name_en")} dir="ltr" required />
              <Field state={state} name="name_ar" label={t("catalogue_admin.fields.name_ar")} dir="rtl" required />
              <AreaField state={state} name="address_en" label={t("catalogue_admin.stores.address_en")} dir="ltr" />
              <AreaField state={state} name="address_ar" label={t("catalogue_admin.stores.address_ar")} dir="rtl" />
              <Field state={state} name="phone" label={t("catalogue_admin.stores.phone")} type="tel" dir="ltr" />
              <Field
                state={state}
                name="position"
                label={t("catalogue_admin.fields.position")}
                inputMode="numeric"
                dir="ltr"
              />
            </SimpleGrid>
            <Flag state={state} name="is_active" label={t("catalogue_admin.fields.is_active")} />
            <Fieldset legend={t("catalogue_admin.stores.products")}>
              <Stack gap="xs">
                <Radio.Group name="carries" defaultValue={String(state.values.carries ?? "all")}>
                  <Group>
                    <Radio value="all" label={t("catalogue_admin.stores.carries_all")} />
                    <Radio value="chosen" label={t("catalogue_admin.stores.carries_chosen")} />
                  </Group>
                </Radio.Group>
                {productsError ? (
                  <Text c="red" size="sm" role="alert">
                    {productsError}
                  </Text>
                ) : null}
                {products.length ? (
                  <ScrollArea.Autosize mah={280}>
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6}>
                      {products.map((product) => (
                        <Checkbox
                          key={product.slug}
                          name="products"
                          value={product.slug}
                          label={product.name}
                          defaultChecked={chosen.has(product.slug)}
                        />
                      ))}
                    </SimpleGrid>
                  </ScrollArea.Autosize>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t("catalogue_admin.products.empty")}
                  </Text>
                )}
              </Stack>
            </Fieldset>
            {canChange ? (
              <Group>
                <Button type="submit" name="intent" value="save">
                  {t("catalogue_admin.save")}
                </Button>
                {id !== null ? (
                  <Button type="submit" name="intent" value="delete" variant="subtle" color="red" formNoValidate>
                    {t("catalogue_admin.delete")}
                  </Button>
                ) : null}
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
