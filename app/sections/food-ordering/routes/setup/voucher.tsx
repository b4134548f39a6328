import { Anchor, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text } from "@mantine/core";
import { DateTime } from "luxon";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/voucher";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { Field, Flag, type FormState } from "~/sections/food-ordering/components/setup/fields";
import { SetupNav } from "~/sections/food-ordering/components/setup/setup-nav";
import { KUWAIT } from "~/sections/food-ordering/domain/hours";
import { idOf, issuesByField } from "~/sections/food-ordering/domain/setup-fields";
import { VoucherSchema } from "~/sections/food-ordering/domain/voucher-schema";
import {
  deleteVoucher,
  getVoucher,
  saveVoucher,
  serializeVoucher,
} from "~/sections/food-ordering/domain/vouchers-admin.server";
import { formFieldErrors } from "~/sections/food-ordering/presentation/setup-errors.server";
import { formObject, withFlags } from "~/sections/food-ordering/presentation/setup-forms.server";
import { guardSetupPage } from "~/sections/food-ordering/presentation/setup-guard.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "قسيمة" : "Voucher" }];
}

const need = { feature: "product_bulk_create", permission: "change_order" } as const;
const kuwaitInput = (iso: string | null) =>
  iso ? DateTime.fromISO(iso).setZone(KUWAIT).toFormat("yyyy-MM-dd'T'HH:mm") : "";

function voucherIdOf(params: { id?: string }) {
  return params.id === undefined ? null : (idOf(params.id) ?? notFound());
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canSetUp } = await guardSetupPage(context, request, params, need);
  const db = getDbFrom(context);
  const id = voucherIdOf(params);
  const { currency } = await loadMerchantDefaults(db, auth.user.merchantId);
  const voucher = id === null ? undefined : await getVoucher(db, auth.user.merchantId, id);
  if (id !== null && !voucher) notFound();
  const values: Record<string, unknown> = voucher
    ? {
        ...serializeVoucher(voucher, currency),
        valid_from: kuwaitInput(voucher.valid_from),
        valid_to: kuwaitInput(voucher.valid_to),
      }
    : { discount_type: "percentage", is_active: true };
  return { lang, id, canSetUp, currency, values, used: voucher?.used ?? 0 };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardSetupPage(context, request, params, need);
  const db = getDbFrom(context);
  const id = voucherIdOf(params);
  const form = await readFormData(request);
  const actor = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const list = `/${lang}/food-ordering/vouchers`;
  if (form.get("intent") === "delete") {
    const removed =
      id === null
        ? { ok: false as const }
        : await deleteVoucher(db, { merchantId: auth.user.merchantId, actor, id, ip });
    if (!removed.ok) notFound();
    return redirect(list, {
      headers: {
        "Set-Cookie": flashCookie({
          kind: "success",
          message: removed.deactivated ? "food_setup.deactivated" : "food_setup.deleted",
        }),
      },
    });
  }
  const values = withFlags(formObject(form), ["is_active"]);
  const parsed = VoucherSchema.safeParse({
    valid_from: "",
    valid_to: "",
    min_total: "",
    max_uses: "",
    max_uses_per_customer: "",
    ...values,
  });
  if (!parsed.success)
    return data({ values, errors: formFieldErrors(issuesByField(parsed.error.issues), lang) }, { status: 400 });
  const saved = await saveVoucher(db, {
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
  return redirect(list, { headers: { "Set-Cookie": flashCookie({ kind: "success", message: "food_setup.saved" }) } });
}

export default function Voucher() {
  const { t } = useTranslation();
  const { lang, id, canSetUp, currency, values, used } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply && "errors" in reply ? reply : { values, errors: {} };
  return (
    <Stack gap="md" maw={960}>
      <PageHeader title={id === null ? t("food_setup.vouchers.new") : t("food_setup.vouchers.edit")} />
      <SetupNav lang={lang} canSetUp={canSetUp} current="vouchers" />
      <Anchor component={Link} to={`/${lang}/food-ordering/vouchers`}>
        {t("food_setup.vouchers.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <Stack gap="md">
            <FormErrors errors={state.errors.non_field_errors} />
            {id !== null ? <Text>{t("food_setup.vouchers.used", { used })}</Text> : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Field state={state} name="code" label={t("food_setup.vouchers.code")} dir="ltr" required />
              <NativeSelect
                name="discount_type"
                label={t("food_setup.vouchers.discount_type")}
                defaultValue={String(state.values.discount_type ?? "percentage")}
                data={[
                  { value: "percentage", label: t("food_setup.vouchers.percentage") },
                  { value: "fixed", label: t("food_setup.vouchers.fixed", { currency }) },
                ]}
              />
              <Field
                state={state}
                name="amount"
                label={t("food_setup.vouchers.amount")}
                description={t("food_setup.vouchers.amount_help")}
                inputMode="decimal"
                dir="ltr"
                required
              />
              <Field
                state={state}
                name="min_total"
                label={`${t("food_setup.vouchers.min_total")} (${currency})`}
                inputMode="decimal"
                dir="ltr"
              />
              <Field
                state={state}
                name="valid_from"
                label={t("food_setup.vouchers.valid_from")}
                type="datetime-local"
                dir="ltr"
              />
              <Field
                state={state}
                name="valid_to"
                label={t("food_setup.vouchers.valid_to")}
                type="datetime-local"
                dir="ltr"
              />
              <Field
                state={state}
                name="max_uses"
                label={t("food_setup.vouchers.max_uses")}
                inputMode="numeric"
                dir="ltr"
              />
              <Field
                state={state}
                name="max_uses_per_customer"
                label={t("food_setup.vouchers.max_uses_per_customer")}
                inputMode="numeric"
                dir="ltr"
              />
            </SimpleGrid>
            <Text size="sm" c="dimmed">
              {t("food_setup.vouchers.kuwait_time")}
            </Text>
            <Flag state={state} name="is_active" label={t("food_setup.fields.is_active")} />
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
