import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/payment-restriction";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { isSupportedCurrency } from "~/lib/money";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { CollectorNav } from "../components/collector-nav";
import { getCollector, listCollectors } from "../domain/collectors.server";
import { formObject } from "../domain/form-object";
import {
  findRestrictions,
  removeOwnRestrictions,
  restrictionFormValues,
  saveRestrictions,
} from "../domain/restrictions.server";
import { guardCollectorPage } from "../presentation/guard.server";
import { fieldMessages } from "../presentation/messages.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "قيود الدفع" : "Payment restriction" }];
}

const LIMIT_FIELDS = ["min", "max", "daily_cap"] as const;

type RestrictionValues = {
  currencies?: string[];
  gateways?: string[];
  limits?: Record<string, Record<string, string>>;
  active_from?: string;
  active_to?: string;
};

function collectorIdOf(request: Request) {
  const value = new URL(request.url).searchParams.get("collector");
  if (value === null || value === "") return null;
  return /^\d{1,10}$/.test(value) ? Number(value) : notFound();
}

/**
 * The merchant's payment restrictions for every collector page (`?collector=` a collector's own, which
 * replace them whole): currencies, gateways, amounts by currency, the days, the daily cap per customer.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardCollectorPage(context, request, params, "payment_restriction");
  const db = getDbFrom(context);
  const merchantId = auth.user.merchantId;
  const collectorId = collectorIdOf(request);
  const collector = collectorId === null ? undefined : await getCollector(db, merchantId, collectorId);
  if (collectorId !== null && !collector) notFound();
  const row = await findRestrictions(db, merchantId, collectorId);
  // A page without its own set shows the merchant's, so that saving it keeps their limits unless changed.
  const merchantRow = collectorId !== null && !row ? await findRestrictions(db, merchantId, null) : undefined;
  const gateways = await listMerchantGateways(db, merchantId, { enabledOnly: true });
  const { currency } = await loadMerchantDefaults(db, merchantId);
  const currencies = [
    ...new Set([
      currency,
      ...gateways.flatMap((gateway) => gateway.currencies.split(",").map((code) => code.trim().toUpperCase())),
    ]),
  ].filter(isSupportedCurrency);
  const collectors = await listCollectors(db, merchantId);
  return {
    lang,
    canChange,
    collectorId,
    hasOwn: collectorId !== null && Boolean(row),
    prefilled: Boolean(merchantRow),
    defaultCurrency: currency,
    currencies,
    gateways: gateways.map((gateway) => ({
      code: gateway.code,
      name: lang === "ar" ? gateway.name_ar : gateway.name_en,
      cod: gateway.kind === "cod",
    })),
    collectors: collectors.map((one) => ({ id: one.id, title: lang === "ar" ? one.title_ar : one.title_en })),
    values: restrictionFormValues(row ?? merchantRow),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardCollectorPage(context, request, params, "payment_restriction", "change_collector");
  const db = getDbFrom(context);
  const merchantId = auth.user.merchantId;
  const collectorId = collectorIdOf(request);
  if (collectorId !== null && !(await getCollector(db, merchantId, collectorId))) notFound();
  const form = await readFormData(request);
  const actor = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const here = `/${lang}/customer-payment/payment-restriction${collectorId === null ? "" : `?collector=${collectorId}`}`;
  const intent = String(form.get("intent") ?? "save");
  if (intent === "inherit") {
    if (collectorId === null) return data({ values: null, errors: {} as Record<string, string> }, { status: 400 });
    await removeOwnRestrictions(db, { merchantId, collectorId, actor, ip });
    return redirect(here, {
      status: 303,
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "collectors.restrictions.inherited" }) },
    });
  }
  if (intent !== "save") return data({ values: null, errors: {} as Record<string, string> }, { status: 400 });
  const values = formObject(form, ["currencies", "gateways"]);
  const saved = await saveRestrictions(db, { merchantId, collectorId, actor, input: values, ip });
  if (!saved.ok)
    return data(
      { values: values as RestrictionValues | null, errors: fieldMessages(saved.errors, saved.params, lang) },
      { status: 400 },
    );
  return redirect(here, {
    status: 303,
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "collectors.restrictions.saved" }) },
  });
}

export default function PaymentRestriction() {
  const { t } = useTranslation();
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as
    { values: RestrictionValues | null; errors: Record<string, string> } | undefined;
  const values: RestrictionValues = reply?.values ?? page.values;
  const errors: Record<string, string> = reply?.errors ?? {};
  const action = `/${page.lang}/customer-payment/payment-restriction${page.collectorId === null ? "" : `?collector=${page.collectorId}`}`;
  return (
    <Stack gap="md" maw={1000}>
      <PageHeader
        title={t("features.customer_payment.payment_restriction")}
        description={t("collectors.restrictions.intro")}
      />
      <CollectorNav lang={page.lang} current="payment_restriction" />
      <Form method="get">
        <Group align="flex-end" gap="xs">
          <NativeSelect
            name="collector"
            label={t("collectors.restrictions.applies_to")}
            defaultValue={page.collectorId === null ? "" : String(page.collectorId)}
            data={[
              { value: "", label: t("collectors.restrictions.all_collectors") },
              ...page.collectors.map((one) => ({ value: String(one.id), label: one.title })),
            ]}
          />
          <Button type="submit" variant="default">
            {t("collectors.restrictions.show")}
          </Button>
        </Group>
      </Form>
      {page.collectorId !== null ? (
        <Alert color={page.hasOwn ? "orange" : "blue"}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {page.hasOwn
                ? t("collectors.restrictions.own_notice")
                : page.prefilled
                  ? t("collectors.restrictions.prefilled_notice")
                  : t("collectors.restrictions.inherit_notice")}
            </Text>
            {page.hasOwn && page.canChange ? (
              <Form method="post" action={action}>
                <Button type="submit" name="intent" value="inherit" variant="default" size="xs">
                  {t("collectors.restrictions.inherit")}
                </Button>
              </Form>
            ) : null}
          </Group>
        </Alert>
      ) : null}
      <Card withBorder padding="lg">
        <Form method="post" action={action} key={JSON.stringify(values)}>
          <fieldset disabled={!page.canChange} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="lg">
              <FormErrors errors={errors.non_field_errors ? [errors.non_field_errors] : undefined} />
              <Checkbox.Group
                label={t("collectors.restrictions.currencies")}
                description={t("collectors.restrictions.currencies_hint", { currency: page.defaultCurrency })}
                error={errors.currencies}
                defaultValue={values.currencies ?? []}
              >
                <Group mt="xs">
                  {page.currencies.map((code) => (
                    <Checkbox key={code} name="currencies" value={code} label={code} />
                  ))}
                </Group>
              </Checkbox.Group>
              <Checkbox.Group
                label={t("collectors.restrictions.gateways")}
                description={t("collectors.restrictions.gateways_hint")}
                error={errors.gateways}
                defaultValue={values.gateways ?? []}
              >
                <Group mt="xs">
                  {page.gateways.map((gateway) => (
                    <Checkbox key={gateway.code} name="gateways" value={gateway.code} label={gateway.name} />
                  ))}
                </Group>
              </Checkbox.Group>
              <div>
                <Text fw={500} size="sm">
                  {t("collectors.restrictions.amounts")}
                </Text>
                <Text size="xs" c="dimmed" mb="xs">
                  {t("collectors.restrictions.amounts_hint")}
                </Text>
                <Table.ScrollContainer minWidth={560} type="native">
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t("collectors.restrictions.currency")}</Table.Th>
                        {LIMIT_FIELDS.map((field) => (
                          <Table.Th key={field}>{t(`collectors.restrictions.${field}`)}</Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {page.currencies.map((code) => (
                        <Table.Tr key={code}>
                          <Table.Td fw={600}>{code}</Table.Td>
                          {LIMIT_FIELDS.map((field) => (
                            <Table.Td key={field}>
                              <TextInput
                                name={`limits.${code}.${field}`}
                                id={`f-limits.${code}.${field}`}
                                aria-label={`${t(`collectors.restrictions.${field}`)} (${code})`}
                                defaultValue={values.limits?.[code]?.[field] ?? ""}
                                error={errors[`limits.${code}.${field}`]}
                                inputMode="decimal"
                                dir="ltr"
                                maxLength={20}
                              />
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </div>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  type="date"
                  name="active_from"
                  id="f-active_from"
                  label={t("collectors.restrictions.active_from")}
                  defaultValue={values.active_from ?? ""}
                  error={errors.active_from}
                  dir="ltr"
                />
                <TextInput
                  type="date"
                  name="active_to"
                  id="f-active_to"
                  label={t("collectors.restrictions.active_to")}
                  defaultValue={values.active_to ?? ""}
                  error={errors.active_to}
                  dir="ltr"
                />
              </SimpleGrid>
              <Text size="xs" c="dimmed">
                {t("collectors.restrictions.dates_hint")}
              </Text>
              {page.canChange ? (
                <Group>
                  <Button type="submit" name="intent" value="save">
                    {t("collectors.restrictions.save")}
                  </Button>
                </Group>
              ) : null}
            </Stack>
          </fieldset>
        </Form>
      </Card>
    </Stack>
  );
}
