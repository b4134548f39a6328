import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/pay";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { publicId } from "~/lib/ids.server";
import { SUPPORTED_CURRENCIES } from "~/lib/money";
import { collectorPayment, requestMaker } from "~/sections/services.server";
import { readFormData } from "~/web/form-data.server";
import { callerOf } from "~/web/idempotency.server";
import { getDbFrom } from "~/web/request-context.server";
import { NO_STORE, posTitle } from "../components/page";
import { counterExpiration, fieldMessages, makeOnce } from "../presentation/counter.server";
import { languageOf, requireCounter } from "./guard.server";
import "../components/pos.css";

export function meta({ matches }: Route.MetaArgs) {
  return posTitle(matches, "new");
}

export function headers() {
  return NO_STORE;
}

const FIELDS = ["amount", "currency_code", "customer_name", "customer_phone", "customer_email", "description"] as const;
/** The request maker's field names that the counter's form shows under another name. */
const SHOWN_AS: Record<string, string> = {
  customer_first_name: "customer_name",
  customer_last_name: "customer_name",
  pg_codes: "currency_code",
};

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await requireCounter(context, request, "add");
  const db = getDbFrom(context);
  const lang = languageOf(params);
  const [gateways, defaults, collectors] = await Promise.all([
    listMerchantGateways(db, auth.user.merchantId, { enabledOnly: true }),
    loadMerchantDefaults(db, auth.user.merchantId),
    collectorPayment()?.list(db, { merchantId: auth.user.merchantId, lang }) ?? [],
  ]);
  // Only currencies some enabled payment method takes: a payment in another could never be made.
  const currencies = SUPPORTED_CURRENCIES.filter((code) =>
    gateways.some((gateway) => gateway.kind !== "cod" && supportsCurrency(gateway, code)),
  );
  return {
    lang,
    currencies,
    defaultCurrency: currencies.includes(defaults.currency) ? defaults.currency : (currencies[0] ?? defaults.currency),
    collectors,
    // A new one each time the form is shown: sent twice, one payment.
    formToken: publicId(),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await requireCounter(context, request, "add");
  const db = getDbFrom(context);
  const lang = languageOf(params);
  const form = await readFormData(request);
  const values: Record<string, string> = {};
  for (const name of FIELDS) values[name] = String(form.get(name) ?? "").slice(0, 2100);
  const token = String(form.get("form_token") ?? "");
  // The customer chooses on their phone among the enabled methods that take the currency; not cash
  // on delivery: the customer is at the counter, there is nothing to deliver.
  const currency = values.currency_code || (await loadMerchantDefaults(db, auth.user.merchantId)).currency;
  const gateways = (await listMerchantGateways(db, auth.user.merchantId, { enabledOnly: true })).filter(
    (gateway) => gateway.kind !== "cod" && supportsCurrency(gateway, currency.toUpperCase()),
  );
  const made = await makeOnce(
    db,
    { merchantId: auth.user.merchantId, caller: callerOf(auth.user), scope: "pos_pay", token, fields: values },
    async () => {
      const result = await requestMaker()(db, {
        merchantId: auth.user.merchantId,
        user: { id: auth.user.id, username: auth.user.username },
        lang,
        source: "pos",
        fields: {
          amount: values.amount,
          currency_code: values.currency_code || undefined,
          customer_first_name: values.customer_name,
          customer_phone: values.customer_phone,
          customer_email: values.customer_email,
          description: values.description,
          pg_codes: gateways.map((gateway) => gateway.code),
          // A counter link is for the customer in front of it: it stops working soon after.
          expiration_time: counterExpiration(),
        },
      });
      return result.ok ? { ok: true, transactionId: result.transactionId } : result;
    },
  );
  if (made.ok) return redirect(`/${lang}/pos/pay/${made.transactionId}`, 303);
  const errors: Record<string, string[]> = {};
  if ("busy" in made) errors.non_field_errors = ["pos.errors.busy"];
  else
    for (const [field, codes] of Object.entries(made.errors))
      (errors[SHOWN_AS[field] ?? (FIELDS.includes(field as never) ? field : "non_field_errors")] ??= []).push(...codes);
  // A fresh token: the corrected form is a new submission.
  return data(
    { values, errors: fieldMessages(errors, "busy" in made ? {} : made.params, lang), formToken: publicId() },
    { status: "busy" in made ? 409 : 400 },
  );
}

export default function PosPay() {
  const { t } = useTranslation();
  const { lang, currencies, defaultCurrency, collectors, formToken } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string> = answer?.errors ?? {};
  const value = (name: string, fallback = "") => answer?.values?.[name] ?? fallback;
  const describedError = (name: string) => (errors[name] ? { error: errors[name] } : {});
  // Keyed by the token so that a refused submit shows the fields as sent, with the new token.
  return (
    <Stack className="pos-page" gap="md" key={answer?.formToken ?? formToken}>
      <Title order={1} fz="h2">
        {t("pos.new_payment")}
      </Title>
      <Card withBorder padding="lg">
        <Form method="post">
          <input type="hidden" name="form_token" value={answer?.formToken ?? formToken} />
          <Stack gap="md">
            {errors.non_field_errors ? (
              <Alert color="red" role="alert">
                {errors.non_field_errors}
              </Alert>
            ) : null}
            <div className="pos-amount">
              <TextInput
                name="amount"
                label={t("pos.amount")}
                inputMode="decimal"
                autoComplete="off"
                required
                maxLength={20}
                size="lg"
                placeholder="0.000"
                defaultValue={value("amount")}
                dir="ltr"
                {...describedError("amount")}
              />
              {currencies.length > 1 ? (
                <NativeSelect
                  name="currency_code"
                  label={t("pos.currency")}
                  size="lg"
                  data={currencies.map((code) => ({ value: code, label: code }))}
                  defaultValue={value("currency_code", defaultCurrency)}
                  {...describedError("currency_code")}
                />
              ) : (
                <>
                  <input type="hidden" name="currency_code" value={defaultCurrency} />
                  <TextInput
                    label={t("pos.currency")}
                    size="lg"
                    value={defaultCurrency}
                    readOnly
                    tabIndex={-1}
                    {...describedError("currency_code")}
                  />
                </>
              )}
            </div>
            <Text fw={600} size="sm">
              {t("pos.optional_details")}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                name="customer_name"
                label={t("pos.customer_name")}
                autoComplete="off"
                maxLength={100}
                defaultValue={value("customer_name")}
                dir="auto"
                {...describedError("customer_name")}
              />
              <TextInput
                name="customer_phone"
                label={t("pos.customer_phone")}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                maxLength={30}
                defaultValue={value("customer_phone")}
                dir="ltr"
                {...describedError("customer_phone")}
              />
              <TextInput
                name="customer_email"
                label={t("pos.customer_email")}
                type="email"
                autoComplete="off"
                maxLength={254}
                defaultValue={value("customer_email")}
                dir="ltr"
                {...describedError("customer_email")}
              />
            </SimpleGrid>
            <Textarea
              name="description"
              label={t("pos.description")}
              maxLength={2000}
              autosize
              minRows={2}
              maxRows={6}
              defaultValue={value("description")}
              dir="auto"
              {...describedError("description")}
            />
            <Button type="submit" size="lg" loading={busy} fullWidth>
              {t("pos.create")}
            </Button>
          </Stack>
        </Form>
      </Card>
      {collectors.length ? (
        <Card withBorder padding="lg">
          <Stack gap="xs">
            <Title order={2} fz="h4">
              {t("pos.collectors_title")}
            </Title>
            <Text size="sm" c="dimmed">
              {t("pos.collectors_help")}
            </Text>
            <Group gap="sm">
              {collectors.map((collector) => (
                <Anchor
                  key={collector.publicId}
                  component={Link}
                  to={`/${lang}/pos/pay/collect/${collector.publicId}`}
                  className="pos-collector-link"
                  dir="auto"
                >
                  {collector.title}
                </Anchor>
              ))}
            </Group>
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
