import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Card, Checkbox, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/create";
import {
  CheckboxField,
  DateTimeField,
  FileField,
  FormErrors,
  PhoneField,
  SelectField,
  TextareaField,
  TextField,
} from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { storeAttachment } from "~/domain/payments/attachments.server";
import { listMerchantGateways, supportsCurrency } from "~/domain/payments/gateway-settings.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { loadPaymentRequestSettings } from "~/sections/payment-request/settings.server";
import { flashCookie } from "~/web/flash.server";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { formatAmount, SUPPORTED_CURRENCIES } from "~/lib/money";
import { editableAmountCap } from "~/domain/payments/amount-bounds.server";
import { getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { readFormData } from "~/web/form-data.server";
import { COUNTRIES } from "~/lib/countries";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { listUnits } from "~/domain/merchants/units-admin.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إنشاء طلب دفع" : "Create payment request" }];
}

async function guard({ context, request }: { context: Route.LoaderArgs["context"]; request: Request }) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "payment_request", "create");
  requirePermission(auth, "add_paymenttransaction");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const db = getDbFrom(context);
  const [gateways, settings, defaults, units] = await Promise.all([
    listMerchantGateways(db, auth.user.merchantId, { enabledOnly: true }),
    loadPaymentRequestSettings(db, auth.user.merchantId),
    loadMerchantDefaults(db, auth.user.merchantId),
    listUnits(db, auth.user.merchantId),
  ]);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  // Only currencies some enabled payment method takes: a request in another could never be paid.
  const currencies = SUPPORTED_CURRENCIES.filter((code) => gateways.some((gateway) => supportsCurrency(gateway, code)));
  return {
    lang,
    currencies,
    /** The merchant's own currency first when some method takes it (Administration → Profile). */
    defaultCurrency: currencies.includes(defaults.currency)
      ? defaults.currency
      : currencies.includes("KWD")
        ? "KWD"
        : (currencies[0] ?? "KWD"),
    /** A phone typed without its code belongs to the merchant's country. */
    defaultCountry: defaults.country,
    /** Offered only when the merchant has more than one; the default unit is the first. */
    units: units.length > 1 ? units.map((unit) => ({ id: unit.id, name: unit.name })) : [],
    /** What the merchant turned off is not offered (Administration → Sections). */
    settings,
    /** The cap on an editable amount in each currency, as the page shows it. */
    caps: Object.fromEntries(
      SUPPORTED_CURRENCIES.map((code) => [code, formatAmount(editableAmountCap(code), code, lang)]),
    ),
    gateways: gateways.map((gateway) => ({
      code: gateway.code,
      name: params.lang === "ar" ? gateway.name_ar : gateway.name_en,
      currencies: gateway.currencies
        .split(",")
        .map((code) => code.trim().toUpperCase())
        .filter(Boolean),
    })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const formData = await readFormData(request);
  let kept = String(formData.get("attachment_kept") ?? "") || null;
  const submission = parseWithZod(formData, { schema: PaymentRequestSchema });
  if (submission.status !== "success") {
    // Whatever else is wrong, a good file is kept so the merchant does not have to choose it again.
    const file = formData.get("attachment");
    if (file instanceof File && file.size > 0) {
      const stored = await storeAttachment(auth.user.merchantId, file);
      if (stored.ok) kept = stored.key;
    }
    return data({ result: submission.reply(), kept }, { status: 400 });
  }
  // A file kept from an earlier, refused submit stands unless a new one was chosen.
  const values = { ...submission.value, attachment: submission.value.attachment ?? kept ?? undefined };
  const created = await createPaymentRequest(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    user: { id: auth.user.id, username: auth.user.username },
    request: values,
    baseUrl: linkBaseUrl(),
    lang,
    settings: await loadPaymentRequestSettings(getDbFrom(context), auth.user.merchantId),
  });
  if (!created.ok) {
    return data(
      { result: submission.reply({ fieldErrors: created.errors }), kept: created.keptAttachment ?? null },
      { status: 400 },
    );
  }
  return redirect(`/${lang}/payment-request/transactions/${created.transaction.id}`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "payment_request.created" }) },
  });
}

export default function CreatePaymentRequest() {
  const { t } = useTranslation();
  const { gateways, caps, currencies, lang, settings, defaultCurrency, defaultCountry, units } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.result;
  const kept = actionData?.kept ?? null;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "payment-request",
    lastResult,
    defaultValue: {
      currency_code: defaultCurrency,
      customer_phone_country: defaultCountry,
      unit: units[0] ? String(units[0].id) : undefined,
      delivery_mode: "none",
      pg_codes: gateways
        .filter((gateway) => gateway.currencies.includes(defaultCurrency))
        .map((gateway) => gateway.code),
    },
    constraint: {
      amount: { required: true, maxLength: 20 },
      min_amount: { maxLength: 20 },
      max_amount: { maxLength: 20 },
      description: { maxLength: 2000 },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PaymentRequestSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const currency = (fields.currency_code.value as string | undefined) ?? defaultCurrency;
  const cap = caps[currency] ?? caps.KWD;
  const chosenCodes = new Set((fields.pg_codes.initialValue as string[] | string | undefined) ?? []);
  const pgError = fields.pg_codes.errors?.[0];
  const untaking = gateways.filter((gateway) => !gateway.currencies.includes(currency));
  return (
    <Stack maw={760}>
      <PageHeader title={t("payment_request.create_title")} description={t("payment_request.create_subtitle")} />
      <Card withBorder padding="lg">
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
          <Stack gap="md">
            <FormErrors errors={form.errors} id={form.errorId} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextField
                field={fields.amount}
                label={t("payment_request.amount")}
                inputMode="decimal"
                placeholder="12.500"
                errorValues={{ cap }}
              />
              <SelectField
                field={fields.currency_code}
                label={t("payment_request.currency")}
                options={currencies.map((code) => ({ value: code, label: code }))}
              />
              <TextField
                field={fields.customer_first_name}
                label={t("payment_request.first_name")}
                autoComplete="off"
              />
              <TextField field={fields.customer_last_name} label={t("payment_request.last_name")} autoComplete="off" />
              <TextField
                field={fields.customer_email}
                label={t("payment_request.customer_email")}
                type="email"
                autoComplete="off"
              />
              <PhoneField
                field={fields.customer_phone}
                countryField={fields.customer_phone_country}
                label={t("payment_request.customer_phone")}
                countryLabel={t("payment_request.phone_country")}
                countries={COUNTRIES}
                lang={lang}
              />
            </SimpleGrid>
            {units.length ? (
              <SelectField
                field={fields.unit}
                label={t("payment_request.unit")}
                description={t("payment_request.unit_help")}
                options={units.map((unit) => ({ value: String(unit.id), label: unit.name }))}
              />
            ) : null}
            <TextareaField
              field={fields.description}
              label={t("payment_request.description")}
              autosize
              minRows={3}
              maxRows={10}
            />
            <TextareaField
              field={fields.remarks}
              label={t("payment_request.remarks")}
              description={t("payment_request.remarks_help")}
              autosize
              minRows={2}
              maxRows={6}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateTimeField
                field={fields.expiration_time}
                label={t("payment_request.expiration_time")}
                description={
                  settings.defaultExpiryHours
                    ? t("payment_request.settings.default_expiry_applies", { hours: settings.defaultExpiryHours })
                    : undefined
                }
                lang={lang}
              />
              <FileField
                field={fields.attachment}
                label={t("payment_request.attachment")}
                description={
                  kept
                    ? t("payment_request.attachment_kept", { name: kept.split("/").pop() })
                    : t("payment_request.attachment_help")
                }
                accept="application/pdf,image/png,image/jpeg,image/webp"
                error={fields.attachment.errors?.[0] ? t(fields.attachment.errors[0]) : undefined}
              >
                {kept ? <input type="hidden" name="attachment_kept" value={kept} /> : null}
              </FileField>
            </SimpleGrid>
            <fieldset className="plain-fieldset" aria-describedby={pgError ? fields.pg_codes.errorId : undefined}>
              <legend>
                <Text fw={600} size="sm">
                  {t("payment_request.gateways")}
                </Text>
              </legend>
              <Group gap="lg" mt={4} align="flex-start">
                {gateways.map((gateway) => {
                  const takes = gateway.currencies.includes(currency);
                  return (
                    <Checkbox
                      key={gateway.code}
                      name={fields.pg_codes.name}
                      value={gateway.code}
                      defaultChecked={chosenCodes.has(gateway.code)}
                      label={gateway.name}
                      description={
                        takes ? (
                          gateway.currencies.join(", ")
                        ) : (
                          <Text component="span" size="xs" c="orange.9" fw={600}>
                            {t("payment_request.gateway_not_currency", { gateway: gateway.name, currency })}
                          </Text>
                        )
                      }
                    />
                  );
                })}
              </Group>
              {untaking.length === gateways.length && gateways.length ? (
                <Alert color="orange" variant="light" mt="xs">
                  {t("payment_request.no_gateway_for_currency", { currency })}
                </Alert>
              ) : null}
              {pgError ? (
                <Text c="red" size="sm" mt={4} id={fields.pg_codes.errorId} role="alert">
                  {t(pgError)}
                </Text>
              ) : null}
            </fieldset>
            {settings.multiStepCheckout ? (
              <SelectField
                field={fields.delivery_mode}
                label={t("payment_request.delivery_mode")}
                options={(["none", "address", "address_location"] as const).map((mode) => ({
                  value: mode,
                  label: t(`payment_request.delivery_modes.${mode}`),
                }))}
              />
            ) : null}
            <Stack gap="xs">
              {settings.editableAmount ? (
                <>
                  <CheckboxField field={fields.editable_amount} label={t("payment_request.editable_amount")} />
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <TextField
                      field={fields.min_amount}
                      label={t("payment_request.min_amount")}
                      description={t("payment_request.min_amount_help")}
                      inputMode="decimal"
                      errorValues={{ cap }}
                    />
                    <TextField
                      field={fields.max_amount}
                      label={t("payment_request.max_amount")}
                      description={t("payment_request.max_amount_help", { cap })}
                      inputMode="decimal"
                      errorValues={{ cap }}
                    />
                  </SimpleGrid>
                </>
              ) : null}
              {settings.emailNotifications ? (
                <CheckboxField field={fields.send_email} label={t("payment_request.send_email")} />
              ) : null}
              {settings.smsNotifications ? (
                <CheckboxField field={fields.send_sms} label={t("payment_request.send_sms")} />
              ) : null}
            </Stack>
            <Group>
              <Button type="submit" loading={busy}>
                {t("payment_request.submit")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
