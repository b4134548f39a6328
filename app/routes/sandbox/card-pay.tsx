import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { data, Form, isRouteErrorResponse, redirectDocument, useNavigation } from "react-router";
import type { Route } from "./+types/card-pay";
import { SandboxFrame } from "./components/sandbox-frame";
import { loadCardPaymentPage, payCardPayment } from "~/domain/sandbox/card-payments.server";
import { cardPaymentFormSchema } from "~/domain/sandbox/payment-forms";
import { now } from "~/lib/clock.server";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";
import { readFormData } from "~/web/form-data.server";

const ERRORS: Record<string, string> = {
  required: "Required",
  card_number_format: "Enter the 16 digits of the card number",
  expiry_format: "Enter the expiry as MM/YY",
  expiry_past: "This card has expired",
  cvv_format: "Enter the 3-digit CVV",
  processed: "This payment has already been processed.",
};

const STAGE_NOTICES = {
  processing: "Your payment is being processed. You may close this page; the merchant will be informed.",
  closed: "This payment has already been processed.",
};

export async function loader({ params, context }: Route.LoaderArgs) {
  requireSandbox();
  const page = await loadCardPaymentPage(getDbFrom(context), params.id);
  if (!page) throw data({ reason: "not_found" }, { status: 404 });
  return data(page, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireSandbox();
  const submission = parseWithZod(await readFormData(request), { schema: cardPaymentFormSchema(now()) });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["cvv"] }) }, { status: 400 });
  const outcome = await payCardPayment(getDbFrom(context), params.id, submission.value, new URL(request.url).origin);
  // Back to the merchant as a document load, as from any external gateway.
  if (outcome.kind === "returned") return redirectDocument(outcome.redirectTo, 303);
  if (outcome.kind === "not_found") throw data({ reason: "not_found" }, { status: 404 });
  return data({ result: submission.reply({ formErrors: ["processed"], hideFields: ["cvv", "cardNumber"] }) }, { status: 409 });
}

export default function CardPay({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `card-${loaderData.id}`,
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
  const errorOf = (errors: string[] | undefined) => (errors?.[0] ? (ERRORS[errors[0]] ?? errors[0]) : undefined);
  const stage = form.errors?.includes("processed") ? "closed" : loaderData.stage;
  const { key: cardNumberKey, ...cardNumberProps } = getInputProps(fields.cardNumber, { type: "text" });
  const { key: expiryKey, ...expiryProps } = getInputProps(fields.expiry, { type: "text" });
  const { key: cvvKey, ...cvvProps } = getInputProps(fields.cvv, { type: "password" });

  return (
    <SandboxFrame gateway="Credit Card" lang="en" title="Pay by card">
      <Group justify="space-between">
        <Text c="dimmed">Amount</Text>
        <Text fw={700}>{formatAmount(loaderData.amount, loaderData.currency, "en")}</Text>
      </Group>
      {stage !== "open" ? (
        <Alert color="gray" variant="light" role="status">
          {STAGE_NOTICES[stage]}
        </Alert>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <TextInput
              key={cardNumberKey}
              {...cardNumberProps}
              label="Card number"
              error={errorOf(fields.cardNumber.errors)}
              errorProps={{ id: fields.cardNumber.errorId, role: "alert" }}
              inputMode="numeric"
              autoComplete="cc-number"
            />
            <Group grow align="flex-start">
              <TextInput
                key={expiryKey}
                {...expiryProps}
                label="Expiry"
                placeholder="MM/YY"
                error={errorOf(fields.expiry.errors)}
                errorProps={{ id: fields.expiry.errorId, role: "alert" }}
                autoComplete="cc-exp"
              />
              <TextInput
                key={cvvKey}
                {...cvvProps}
                label="CVV"
                error={errorOf(fields.cvv.errors)}
                errorProps={{ id: fields.cvv.errorId, role: "alert" }}
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={3}
              />
            </Group>
            <Button type="submit" loading={busy} fullWidth>
              Pay
            </Button>
          </Stack>
        </Form>
      )}
    </SandboxFrame>
  );
}

export function meta() {
  return [{ title: "Credit Card Sandbox" }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <SandboxFrame gateway="Credit Card" lang="en" title={notFound ? "Payment not found" : "Something went wrong"} tone="error">
      {notFound ? "This payment does not exist." : "Please try again."}
    </SandboxFrame>
  );
}
