import { Anchor, Button, Card, Fieldset, Group, NativeSelect, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/item";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { AreaField, Field, Flag, valueAt, type FormState } from "~/sections/food-ordering/components/setup/fields";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { MenuItemSchema } from "~/sections/food-ordering/domain/menu-schema";
import {
  deleteItem,
  getItem,
  listCategories,
  loadItemDetails,
  saveItem,
  serializeItem,
} from "~/sections/food-ordering/domain/menu-admin.server";
import { idOf, issuesByField } from "~/sections/food-ordering/domain/setup-fields";
import { formFieldErrors } from "~/sections/food-ordering/presentation/setup-errors.server";
import { formObject, withFlags } from "~/sections/food-ordering/presentation/setup-forms.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "طبق" : "Dish" }];
}

const need = { feature: "product_bulk_create", permission: "change_order" } as const;

function itemIdOf(params: { id?: string }) {
  return params.id === undefined ? null : (idOf(params.id) ?? notFound());
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canSetUp } = await guardSetupPage(context, request, params, need);
  const db = getDbFrom(context);
  const id = itemIdOf(params);
  const { currency } = await loadMerchantDefaults(db, auth.user.merchantId);
  const categories = await listCategories(db, auth.user.merchantId);
  const item = id === null ? undefined : await getItem(db, auth.user.merchantId, id);
  if (id !== null && !item) notFound();
  const values: Record<string, unknown> = item
    ? {
        ...serializeItem(await loadItemDetails(db, item), currency, lang),
        quantity_shown: item.quantity === null ? "" : String(item.quantity),
      }
    : {
        category: new URL(request.url).searchParams.get("category") ?? "",
        is_available: true,
        position: 0,
        sizes: [],
        add_ons: [],
        option_groups: [],
      };
  return {
    lang,
    id,
    canSetUp,
    currency,
    values,
    categories: categories.map((category) => ({
      value: String(category.id),
      label: lang === "ar" ? category.name_ar : category.name_en,
    })),
  };
}

/**
 * Saves the whole dish. Sizes, add-ons, option groups and their choices are rows of the form: a
 * blank row waits at the end of each list, a row cleared is taken away, and "More rows" answers
 * the form as it is with a blank row more in each list, without JavaScript.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardSetupPage(context, request, params, need);
  const db = getDbFrom(context);
  const id = itemIdOf(params);
  const form = await readFormData(request);
  const actor = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const menu = `/${lang}/food-ordering/menu`;
  const intent = form.get("intent");
  if (intent === "delete") {
    const removed =
      id === null ? { ok: false as const } : await deleteItem(db, { merchantId: auth.user.merchantId, actor, id, ip });
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
  const values = withFlags(formObject(form), ["is_available", "is_promoted"]);
  const whole = {
    description_en: "",
    description_ar: "",
    image: "",
    sku: "",
    discounted_price: "",
    quantity: "",
    sizes: [],
    add_ons: [],
    option_groups: [],
    ...values,
  };
  if (intent === "more") {
    const more = Math.min(10, (Number(form.get("_more")) || 0) + 1);
    return data({ values: { ...whole, _more: more }, errors: {} as Record<string, string[]> }, { status: 200 });
  }
  const parsed = MenuItemSchema.safeParse(whole);
  if (!parsed.success)
    return data({ values: whole, errors: formFieldErrors(issuesByField(parsed.error.issues), lang) }, { status: 400 });
  const saved = await saveItem(db, {
    merchantId: auth.user.merchantId,
    actor,
    input: parsed.data,
    id: id ?? undefined,
    ip,
  });
  if (!saved.ok) {
    if (saved.notFound) notFound();
    return data({ values: whole, errors: formFieldErrors(saved.errors, lang) }, { status: 400 });
  }
  return redirect(menu, { headers: { "Set-Cookie": flashCookie({ kind: "success", message: "food_setup.saved" }) } });
}

const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);

/** Blank rows shown after each list: one, and one more each time "More rows" is pressed. */
const blanks = (state: FormState) => 1 + (Number(state.values._more) || 0);

function PricedRows({ state, list, legend }: { state: FormState; list: string; legend: string }) {
  const { t } = useTranslation();
  const rows = count(valueAt(state.values, list)) + blanks(state);
  return (
    <Fieldset legend={legend}>
      <Stack gap="xs">
        {Array.from({ length: rows }, (_, index) => (
          <SimpleGrid key={index} cols={{ base: 1, sm: 3 }}>
            <Field state={state} name={`${list}[${index}].name_en`} label={t("food_setup.fields.name_en")} dir="ltr" />
            <Field state={state} name={`${list}[${index}].name_ar`} label={t("food_setup.fields.name_ar")} dir="rtl" />
            <Field
              state={state}
              name={`${list}[${index}].price`}
              label={t("food_setup.fields.price")}
              inputMode="decimal"
              dir="ltr"
            />
          </SimpleGrid>
        ))}
      </Stack>
    </Fieldset>
  );
}

export default function Item() {
  const { t } = useTranslation();
  const { lang, id, canSetUp, currency, values, categories } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  const groups = count(state.values.option_groups) + blanks(state);
  const listError = (name: string) => state.errors[name]?.map((message) => t(message)).join(" ");
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={id === null ? t("food_setup.menu.new_item") : t("food_setup.menu.edit_item")} />
      <SetupNav lang={lang} canSetUp={canSetUp} current="menu" />
      <Anchor component={Link} to={`/${lang}/food-ordering/menu`}>
        {t("food_setup.menu.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <input type="hidden" name="_more" value={String(state.values._more ?? 0)} />
            <FormErrors errors={state.errors.non_field_errors} />
            <NativeSelect
              name="category"
              label={t("food_setup.menu.category")}
              defaultValue={String(state.values.category ?? "")}
              data={[{ value: "", label: t("food_setup.menu.choose_category") }, ...categories]}
              error={listError("category")}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field state={state} name="name_en" label={t("food_setup.fields.name_en")} dir="ltr" required />
              <Field state={state} name="name_ar" label={t("food_setup.fields.name_ar")} dir="rtl" required />
              <AreaField state={state} name="description_en" label={t("food_setup.fields.description_en")} dir="ltr" />
              <AreaField state={state} name="description_ar" label={t("food_setup.fields.description_ar")} dir="rtl" />
              <Field state={state} name="sku" label={t("food_setup.menu.sku")} dir="ltr" />
              <Field state={state} name="image" label={t("food_setup.fields.image")} dir="ltr" />
              <Field
                state={state}
                name="price"
                label={`${t("food_setup.fields.price")} (${currency})`}
                inputMode="decimal"
                dir="ltr"
                required
              />
              <Field
                state={state}
                name="discounted_price"
                label={`${t("food_setup.menu.discounted_price")} (${currency})`}
                inputMode="decimal"
                dir="ltr"
              />
              <Field
                state={state}
                name="quantity"
                label={t("food_setup.menu.quantity")}
                description={t("food_setup.menu.quantity_help")}
                inputMode="numeric"
                dir="ltr"
              />
              {state.values.quantity_shown !== undefined ? (
                <input type="hidden" name="quantity_shown" value={String(state.values.quantity_shown)} />
              ) : null}
              <Field
                state={state}
                name="position"
                label={t("food_setup.fields.position")}
                inputMode="numeric"
                dir="ltr"
              />
            </SimpleGrid>
            <Group>
              <Flag state={state} name="is_available" label={t("food_setup.menu.available")} />
              <Flag state={state} name="is_promoted" label={t("food_setup.menu.promoted")} />
            </Group>
            <Text size="sm" c="dimmed">
              {t("food_setup.menu.rows_help")}
            </Text>
            <PricedRows state={state} list="sizes" legend={t("food_setup.menu.sizes")} />
            <PricedRows state={state} list="add_ons" legend={t("food_setup.menu.add_ons")} />
            <Title order={3} fz="h5">
              {t("food_setup.menu.option_groups")}
            </Title>
            {Array.from({ length: groups }, (_, index) => {
              const name = `option_groups[${index}]`;
              return (
                <Fieldset key={index} legend={t("food_setup.menu.option_group", { number: index + 1 })}>
                  <Stack gap="xs">
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <Field state={state} name={`${name}.name_en`} label={t("food_setup.fields.name_en")} dir="ltr" />
                      <Field state={state} name={`${name}.name_ar`} label={t("food_setup.fields.name_ar")} dir="rtl" />
                      <Field
                        state={state}
                        name={`${name}.min_choices`}
                        label={t("food_setup.menu.min_choices")}
                        inputMode="numeric"
                        dir="ltr"
                      />
                      <Field
                        state={state}
                        name={`${name}.max_choices`}
                        label={t("food_setup.menu.max_choices")}
                        inputMode="numeric"
                        dir="ltr"
                      />
                    </SimpleGrid>
                    {listError(`${name}.choices`) ? (
                      <Text c="red" size="sm" role="alert">
                        {listError(`${name}.choices`)}
                      </Text>
                    ) : null}
                    <PricedRows state={state} list={`${name}.choices`} legend={t("food_setup.menu.choices")} />
                  </Stack>
                </Fieldset>
              );
            })}
            <Group>
              <Button type="submit" name="intent" value="save">
                {t("food_setup.save")}
              </Button>
              <Button type="submit" name="intent" value="more" variant="default">
                {t("food_setup.menu.more_rows")}
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
