import { Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text } from "@mantine/core";
import { DateTime } from "luxon";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/discount";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { AdminNav } from "~/sections/catalogue/components/admin/admin-nav";
import { Field, Flag, useFieldError, type FormState } from "~/sections/catalogue/components/admin/fields";
import { DiscountSchema } from "~/sections/catalogue/domain/discount-schema";
import {
  deleteDiscount,
  getDiscount,
  KUWAIT,
  saveDiscount,
  serializeDiscount,
} from "~/sections/catalogue/domain/discounts-admin.server";
import { idOf, issuesByField } from "~/sections/catalogue/domain/fields";
import { loadShopMoney } from "~/sections/catalogue/domain/shop-money.server";
import { formFieldErrors } from "~/sections/catalogue/presentation/errors.server";
import { formObject, withFlags } from "~/sections/catalogue/presentation/forms.server";
import { guardCataloguePage } from "~/sections/catalogue/presentation/guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "خصم" : "Discount" }];
}

const kuwaitInput = (iso: string | null) =>
  iso ? DateTime.fromISO(iso).setZone(KUWAIT).toFormat("yyyy-MM-dd'T'HH:mm") : "";

function discountIdOf(params: { id?: string }) {
  return params.id === undefined ? null : (idOf(params.id) ?? notFound());
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCataloguePage(context, request, params, {
    feature: "discounts",
    permission: "view_product",
  });
  const db = getDbFrom(context);
  const id = discountIdOf(params);
  const money = await loadShopMoney(db, auth.user.merchantId);
  const discount = id === null ? undefined : await getDiscount(db, auth.user.merchantId, id);
  if (id !== null && !discount) notFound();
  const values: Record<string, unknown> = discount
    ? {
        ...serializeDiscount(discount, money),
        valid_from: kuwaitInput(discount.valid_from),
        valid_to: kuwaitInput(discount.valid_to),
        max_uses: discount.max_uses ?? "",
      }
    : { discount_type: "percentage", is_active: true };
  return { lang, id, canChange, currency: money.currency, values, used: discount?.used ?? 0 };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang, actor } = await guardCataloguePage(context, request, params, {
    feature: "discounts",
    permission: "change_product",
  });
  const db = getDbFrom(context);
  const id = discountIdOf(params);
  const form = await readFormData(request);
  const ip = context.get(clientAddressContext);
  const list = `/${lang}/catalogue/discounts`;
  if (form.get("intent") === "delete") {
    const removed =
      id === null
        ? { ok: false as const }
        : await deleteDiscount(db, { merchantId: auth.user.merchantId, actor, id, ip });
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
  const values = {
    valid_from: "",
    valid_to: "",
    min_total: "",
    max_uses: "",
    ...withFlags(formObject(form), ["is_active"]),
  };
  const parsed = DiscountSchema.safeParse(values);
  if (!parsed.success)
    return data({ values, errors: formFieldErrors(issuesByField(parsed.error.issues), lang) }, { status: 400 });
  const saved = await saveDiscount(db, {
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

export default function Discount() {
  const { t } = useTranslation();
  const { lang, id, canChange, currency, values, used } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  const typeError = useFieldError(state, "discount_type");
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={id === null ? t("catalogue_admin.discounts.new") : t("catalogue_admin.discounts.edit")} />
      <AdminNav lang={lang} canChange={canChange} current="discounts" />
      <Anchor component={Link} to={`/${lang}/catalogue/discounts`}>
        {t("catalogue_admin.discounts.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <FormErrors errors={state.errors.non_field_errors} />
            {id !== null ? <Text>{t("catalogue_admin.discounts.used", { used })}</Text> : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field
                state={state}
                name="code"
                label={t("catalogue_admin.discounts.code")}
                description={t("catalogue_admin.discounts.code_help")}
                dir="ltr"
                required
                maxLength={40}
              />
              <NativeSelect
                name="discount_type"
                id="f-discount_type"
                label={t("catalogue_admin.discounts.discount_type")}
                defaultValue={String(state.values.discount_type ?? "percentage")}
                error={typeError}
                data={[
                  { value: "percentage", label: t("catalogue_admin.discounts.percentage") },
                  { value: "fixed", label: t("catalogue_admin.discounts.fixed", { currency }) },
                ]}
              />
              <Field
                state={state}
                name="amount"
                label={t("catalogue_admin.discounts.amount")}
                description={t("catalogue_admin.discounts.amount_help")}
                inputMode="decimal"
                dir="ltr"
                required
              />
              <Field
                state={state}
                name="min_total"
                label={`${t("catalogue_admin.discounts.min_total")} (${currency})`}
                inputMode="decimal"
                dir="ltr"
              />
              <Field
                state={state}
                name="valid_from"
                label={t("catalogue_admin.discounts.valid_from")}
                type="datetime-local"
                dir="ltr"
              />
              <Field
                state={state}
                name="valid_to"
                label={t("catalogue_admin.discounts.valid_to")}
                type="datetime-local"
                dir="ltr"
              />
              <Field
                state={state}
                name="max_uses"
                label={t("catalogue_admin.discounts.max_uses")}
                description={t("catalogue_admin.discounts.max_uses_help")}
                inputMode="numeric"
                dir="ltr"
              />
            </SimpleGrid>
            <Text size="sm" c="dimmed">
              {t("catalogue_admin.discounts.kuwait_time")}
            </Text>
            <Flag state={state} name="is_active" label={t("catalogue_admin.fields.is_active")} />
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
