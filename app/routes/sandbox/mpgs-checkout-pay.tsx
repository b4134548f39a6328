import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Stack, Table, Text, TextInput } from "@mantine/core";
import { data, Form, isRouteErrorResponse, redirectDocument, useNavigation } from "react-router";
import type { Route } from "./+types/mpgs-checkout-pay";
import { SandboxFrame } from "./components/sandbox-frame";
import { loadCheckoutPage, payCheckout } from "~/domain/sandbox/mpgs-gateway.server";
import { cardPaymentFormSchema } from "~/domain/sandbox/payment-forms";
import { MPGS_CHALLENGE_CODE, MPGS_TEST_CARDS, MPGS_TEST_EXPIRIES } from "~/domain/sandbox/test-cards";
import { now } from "~/lib/clock.server";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";
import { readFormData } from "~/web/form-data.server";

/** The Hosted Payment Page speaks the session's interaction.locale: these strings are the sandbox's own, not the platform's. */
const LABELS = {
  en: {
    gateway: "Mastercard Gateway",
    title: "Pay by card",
    merchant: "Merchant",
    amount: "Amount",
    cardNumber: "Card number",
    expiry: "Expiry (MM/YY)",
    cvv: "Security code (CVV)",
    pay: "Pay",
    testCards: "Test cards",
    testRows: [
      [
        `${MPGS_TEST_CARDS.mastercard} / ${MPGS_TEST_CARDS.visa}`,
        `${MPGS_TEST_EXPIRIES.approved}: approved · ${MPGS_TEST_EXPIRIES.declined}: declined · ${MPGS_TEST_EXPIRIES.expired}: expired card · ${MPGS_TEST_EXPIRIES.timedOut}: no answer (left pending)`,
      ],
      [MPGS_TEST_CARDS.challenge, `3-D Secure challenge (code ${MPGS_CHALLENGE_CODE}), then by expiry as above`],
    ],
    processing: "Your payment is being processed. You may close this page; the merchant will be informed.",
    closed: "This payment has already been processed.",
    errors: {
      required: "Required",
      card_number_format: "Enter the 16 digits of the card number",
      expiry_format: "Enter the expiry as MM/YY",
      expiry_past: "This card has expired",
      cvv_format: "Enter the 3-digit security code",
      processed: "This payment has already been processed.",
    } as Record<string, string>,
  },
  ar: {
    gateway: "بوابة ماستركارد",
    title: "الدفع بالبطاقة",
    merchant: "التاجر",
    amount: "المبلغ",
    cardNumber: "رقم البطاقة",
    expiry: "تاريخ الانتهاء (شهر/سنة)",
    cvv: "رمز الأمان (CVV)",
    pay: "ادفع",
    testCards: "بطاقات الاختبار",
    testRows: [
      [
        `${MPGS_TEST_CARDS.mastercard} / ${MPGS_TEST_CARDS.visa}`,
        `${MPGS_TEST_EXPIRIES.approved}: مقبولة · ${MPGS_TEST_EXPIRIES.declined}: مرفوضة · ${MPGS_TEST_EXPIRIES.expired}: بطاقة منتهية · ${MPGS_TEST_EXPIRIES.timedOut}: بلا رد (تبقى معلّقة)`,
      ],
      [MPGS_TEST_CARDS.challenge, `تحقق 3-D Secure (الرمز ${MPGS_CHALLENGE_CODE})، ثم حسب تاريخ الانتهاء كما أعلاه`],
    ],
    processing: "دفعتك قيد المعالجة. يمكنك إغلاق هذه الصفحة؛ سيُبلَّغ التاجر.",
    closed: "تمت معالجة هذه العملية من قبل.",
    errors: {
      required: "مطلوب",
      card_number_format: "أدخل أرقام البطاقة الستة عشر",
      expiry_format: "أدخل تاريخ الانتهاء بالشكل شهر/سنة (MM/YY)",
      expiry_past: "انتهت صلاحية هذه البطاقة",
      cvv_format: "أدخل رمز الأمان المكوّن من 3 أرقام",
      processed: "تمت معالجة هذه العملية من قبل.",
    } as Record<string, string>,
  },
};

export async function loader({ params, context }: Route.LoaderArgs) {
  requireSandbox();
  const page = await loadCheckoutPage(getDbFrom(context), params.sessionId);
  if (!page) throw data({ reason: "not_found" }, { status: 404 });
  // The payer who left for the 3-D Secure challenge comes back to it.
  if (page.stage === "challenge")
    return redirectDocument(`/sandbox/mpgs/checkout/pay/${encodeURIComponent(page.sessionId)}/authenticate`, 303);
  return data(page, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireSandbox();
  const submission = parseWithZod(await readFormData(request), { schema: cardPaymentFormSchema(now()) });
  if (submission.status !== "success")
    return data({ result: submission.reply({ hideFields: ["cvv"] }) }, { status: 400 });
  const outcome = await payCheckout(
    getDbFrom(context),
    params.sessionId,
    submission.value,
    new URL(request.url).origin,
  );
  // Back to the merchant as a document load, as from any external gateway.
  if (outcome.kind === "returned") return redirectDocument(outcome.redirectTo, 303);
  if (outcome.kind === "challenge")
    return redirectDocument(`/sandbox/mpgs/checkout/pay/${encodeURIComponent(params.sessionId)}/authenticate`, 303);
  if (outcome.kind === "not_found") throw data({ reason: "not_found" }, { status: 404 });
  return data(
    { result: submission.reply({ formErrors: ["processed"], hideFields: ["cvv", "cardNumber"] }) },
    { status: 409 },
  );
}

export default function MpgsCheckoutPay({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const labels = LABELS[loaderData.lang];
  const [form, fields] = useForm({
    id: `mpgs-${loaderData.sessionId}`,
    lastResult: actionData?.result,
    constraint: {
      cardNumber: { required: true, pattern: "[0-9 \\-]{16,19}" },
      expiry: { required: true, pattern: "(0[1-9]|1[0-2])/[0-9]{2}" },
      cvv: { required: true, pattern: "[0-9]{3}" },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cardPaymentFormSchema(null) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // Without JavaScript the browser checks the fields itself.
    defaultNoValidate: false,
  });
  const errorOf = (errors: string[] | undefined) => (errors?.[0] ? (labels.errors[errors[0]] ?? errors[0]) : undefined);
  const stage = form.errors?.includes("processed") ? "closed" : loaderData.stage;
  const { key: cardNumberKey, ...cardNumberProps } = getInputProps(fields.cardNumber, { type: "text" });
  const { key: expiryKey, ...expiryProps } = getInputProps(fields.expiry, { type: "text" });
  const { key: cvvKey, ...cvvProps } = getInputProps(fields.cvv, { type: "password" });

  return (
    <SandboxFrame gateway={labels.gateway} lang={loaderData.lang} title={labels.title}>
      {loaderData.merchantName ? (
        <Group justify="space-between">
          <Text c="dimmed">{labels.merchant}</Text>
          <Text fw={600}>{loaderData.merchantName}</Text>
        </Group>
      ) : null}
      <Group justify="space-between">
        <Text c="dimmed">{labels.amount}</Text>
        <Text fw={700}>{formatAmount(loaderData.amount, loaderData.currency, loaderData.lang)}</Text>
      </Group>
      {stage !== "open" ? (
        <Alert color="gray" variant="light" role="status">
          {labels[stage === "closed" ? "closed" : "processing"]}
        </Alert>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <TextInput
              key={cardNumberKey}
              {...cardNumberProps}
              label={labels.cardNumber}
              error={errorOf(fields.cardNumber.errors)}
              errorProps={{ id: fields.cardNumber.errorId, role: "alert" }}
              inputMode="numeric"
              autoComplete="cc-number"
              dir="ltr"
            />
            <Group grow align="flex-start">
              <TextInput
                key={expiryKey}
                {...expiryProps}
                label={labels.expiry}
                placeholder="MM/YY"
                error={errorOf(fields.expiry.errors)}
                errorProps={{ id: fields.expiry.errorId, role: "alert" }}
                autoComplete="cc-exp"
                dir="ltr"
              />
              <TextInput
                key={cvvKey}
                {...cvvProps}
                label={labels.cvv}
                error={errorOf(fields.cvv.errors)}
                errorProps={{ id: fields.cvv.errorId, role: "alert" }}
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={3}
                dir="ltr"
              />
            </Group>
            <Button type="submit" loading={busy} fullWidth>
              {labels.pay}
            </Button>
          </Stack>
        </Form>
      )}
      <Stack gap={4}>
        <Text fw={600} fz="sm">
          {labels.testCards}
        </Text>
        <Table fz="xs" withRowBorders={false}>
          <Table.Tbody>
            {labels.testRows.map(([card, rule]) => (
              <Table.Tr key={card}>
                <Table.Td dir="ltr">{card}</Table.Td>
                <Table.Td>{rule}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </SandboxFrame>
  );
}

export function meta() {
  return [{ title: "Mastercard Gateway Sandbox" }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <SandboxFrame
      gateway="Mastercard Gateway"
      lang="en"
      title={notFound ? "Session not found" : "Something went wrong"}
      tone="error"
    >
      {notFound ? "This checkout session does not exist." : "Please try again."}
    </SandboxFrame>
  );
}
