import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { data, Form, isRouteErrorResponse, redirectDocument, useNavigation } from "react-router";
import type { Route } from "./+types/knet-payment-page";
import { SandboxFrame } from "./components/sandbox-frame";
import { completeKnetPayment, loadKnetPaymentPage } from "~/domain/sandbox/knet-payments.server";
import { KnetPaymentFormSchema } from "~/domain/sandbox/payment-forms";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";
import { readFormData } from "~/web/form-data.server";

/** KNET's page speaks the merchant's langid: these few strings are the sandbox's own, not the platform's. */
const LABELS = {
  en: {
    title: "Pay with your debit card",
    amount: "Amount",
    trackId: "Merchant track ID",
    cardNumber: "Card number",
    pin: "PIN",
    expiry: "Expiry (MM/YYYY)",
    submit: "Submit",
    cancel: "Cancel",
    processed: "This payment has already been processed.",
    errors: {
      required: "Required",
      card_number_format: "Enter the 16 digits of the card number",
      pin_format: "Enter the 4-digit PIN",
      expiry_format: "Enter the expiry as MM/YYYY",
    } as Record<string, string>,
  },
  ar: {
    title: "ادفع ببطاقة السحب الآلي",
    amount: "المبلغ",
    trackId: "رقم التتبع لدى التاجر",
    cardNumber: "رقم البطاقة",
    pin: "الرقم السري",
    expiry: "تاريخ الانتهاء (شهر/سنة)",
    submit: "إرسال",
    cancel: "إلغاء",
    processed: "تمت معالجة هذه العملية من قبل.",
    errors: {
      required: "مطلوب",
      card_number_format: "أدخل أرقام البطاقة الستة عشر",
      pin_format: "أدخل الرقم السري المكوّن من 4 أرقام",
      expiry_format: "أدخل تاريخ الانتهاء بالشكل شهر/سنة (MM/YYYY)",
    } as Record<string, string>,
  },
};

function pageKey(request: Request) {
  const query = new URL(request.url).searchParams;
  return { paymentId: query.get("PaymentID") ?? "", pageToken: query.get("token") ?? "" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireSandbox();
  const { paymentId, pageToken } = pageKey(request);
  const page = await loadKnetPaymentPage(getDbFrom(context), paymentId, pageToken);
  if (!page) throw data({ reason: "not_found" }, { status: 404 });
  return data(page, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  requireSandbox();
  const submission = parseWithZod(await readFormData(request), { schema: KnetPaymentFormSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply({ hideFields: ["pin"] }) }, { status: 400 });
  const choice =
    submission.value.intent === "cancel"
      ? ({ kind: "cancel" } as const)
      : ({
          kind: "submit",
          cardNumber: submission.value.cardNumber,
          pin: submission.value.pin,
          expiry: submission.value.expiry,
        } as const);
  const outcome = await completeKnetPayment(getDbFrom(context), {
    ...pageKey(request),
    choice,
    browserOrigin: new URL(request.url).origin,
  });
  // Back to the merchant as a document load, as from any external gateway.
  if (outcome.ok) return redirectDocument(outcome.redirectTo, 303);
  if (outcome.error === "not_found") throw data({ reason: "not_found" }, { status: 404 });
  return data(
    { result: submission.reply({ formErrors: ["processed"], hideFields: ["pin", "cardNumber"] }) },
    { status: 409 },
  );
}

export default function KnetPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const labels = LABELS[loaderData.lang];
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `knet-${loaderData.paymentId}`,
    lastResult: actionData?.result,
    constraint: {
      cardNumber: { required: true, pattern: "[0-9 \\-]{16,19}" },
      pin: { required: true, pattern: "[0-9]{4}" },
      expiry: { pattern: "(0[1-9]|1[0-2])/[0-9]{4}" },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: KnetPaymentFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // Without JavaScript the browser checks the fields itself.
    defaultNoValidate: false,
  });
  const errorOf = (errors: string[] | undefined) => (errors?.[0] ? (labels.errors[errors[0]] ?? errors[0]) : undefined);
  const processed = loaderData.processed || form.errors?.includes("processed");
  const { key: cardNumberKey, ...cardNumberProps } = getInputProps(fields.cardNumber, { type: "text" });
  const { key: pinKey, ...pinProps } = getInputProps(fields.pin, { type: "password" });
  const { key: expiryKey, ...expiryProps } = getInputProps(fields.expiry, { type: "text" });

  return (
    <SandboxFrame gateway="KNET" lang={loaderData.lang} title={labels.title}>
      <Stack gap={4}>
        <Group justify="space-between">
          <Text c="dimmed">{labels.amount}</Text>
          <Text fw={700}>{formatAmount(loaderData.amount, "KWD", loaderData.lang)}</Text>
        </Group>
        <Group justify="space-between">
          <Text c="dimmed">{labels.trackId}</Text>
          <Text dir="ltr">{loaderData.trackId}</Text>
        </Group>
      </Stack>
      {processed ? (
        <Alert color="gray" variant="light" role="status">
          {labels.processed}
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
            <TextInput
              key={expiryKey}
              {...expiryProps}
              label={labels.expiry}
              error={errorOf(fields.expiry.errors)}
              errorProps={{ id: fields.expiry.errorId, role: "alert" }}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YYYY"
              maxLength={7}
              dir="ltr"
            />
            <TextInput
              key={pinKey}
              {...pinProps}
              label={labels.pin}
              error={errorOf(fields.pin.errors)}
              errorProps={{ id: fields.pin.errorId, role: "alert" }}
              inputMode="numeric"
              autoComplete="off"
              maxLength={4}
              dir="ltr"
            />
            <Group grow>
              <Button type="submit" name="intent" value="submit" loading={busy}>
                {labels.submit}
              </Button>
              <Button type="submit" name="intent" value="cancel" variant="default" formNoValidate disabled={busy}>
                {labels.cancel}
              </Button>
            </Group>
          </Stack>
        </Form>
      )}
    </SandboxFrame>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.lang === "ar" ? "كي نت" : "KNET" }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <SandboxFrame gateway="KNET" lang="en" title={notFound ? "Payment not found" : "Something went wrong"} tone="error">
      {notFound ? "This payment does not exist or its page address is incomplete." : "Please try again."}
    </SandboxFrame>
  );
}
