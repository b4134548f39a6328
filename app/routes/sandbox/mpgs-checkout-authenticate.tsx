import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { data, Form, isRouteErrorResponse, redirectDocument, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/mpgs-checkout-authenticate";
import { SandboxFrame } from "./components/sandbox-frame";
import { authenticateCheckout, loadCheckoutPage } from "~/domain/sandbox/mpgs-gateway.server";
import { MPGS_CHALLENGE_CODE } from "~/domain/sandbox/test-cards";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { requireSandbox } from "~/web/sandbox-mode.server";
import { readFormData } from "~/web/form-data.server";

const ChallengeSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("authenticate"),
    code: z
      .string()
      .trim()
      .regex(/^\d{4,8}$/),
  }),
  z.object({ intent: z.literal("cancel") }),
]);

/** The issuer's 3-D Secure challenge, in the session's language. */
const LABELS = {
  en: {
    title: "Verify your payment",
    note: `Your bank sent a one-time code. Enter it to authenticate (sandbox code: ${MPGS_CHALLENGE_CODE}).`,
    amount: "Amount",
    code: "One-time code",
    authenticate: "Authenticate",
    cancel: "Cancel",
    invalid: "Enter the 4 to 8 digits of the code",
    closed: "This payment has already been processed.",
  },
  ar: {
    title: "تحقّق من دفعتك",
    note: `أرسل مصرفك رمزًا لمرة واحدة. أدخله للتحقق (رمز البيئة التجريبية: ${MPGS_CHALLENGE_CODE}).`,
    amount: "المبلغ",
    code: "الرمز لمرة واحدة",
    authenticate: "تحقّق",
    cancel: "إلغاء",
    invalid: "أدخل الرمز المكوّن من 4 إلى 8 أرقام",
    closed: "تمت معالجة هذه العملية من قبل.",
  },
};

export async function loader({ params, context }: Route.LoaderArgs) {
  requireSandbox();
  const page = await loadCheckoutPage(getDbFrom(context), params.sessionId);
  if (!page) throw data({ reason: "not_found" }, { status: 404 });
  return data(page, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireSandbox();
  const parsed = ChallengeSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) return data({ invalid: true }, { status: 400 });
  const outcome = await authenticateCheckout(
    getDbFrom(context),
    params.sessionId,
    parsed.data.intent === "cancel" ? "cancel" : { code: parsed.data.code },
  );
  if (outcome.kind === "returned") return redirectDocument(outcome.redirectTo, 303);
  if (outcome.kind === "not_found") throw data({ reason: "not_found" }, { status: 404 });
  return data({ invalid: false }, { status: 409 });
}

export default function MpgsCheckoutAuthenticate({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const labels = LABELS[loaderData.lang];
  return (
    <SandboxFrame gateway="3-D Secure" lang={loaderData.lang} title={labels.title}>
      <Group justify="space-between">
        <Text c="dimmed">{labels.amount}</Text>
        <Text fw={700}>{formatAmount(loaderData.amount, loaderData.currency, loaderData.lang)}</Text>
      </Group>
      {loaderData.stage !== "challenge" || actionData?.invalid === false ? (
        <Alert color="gray" variant="light" role="status">
          {labels.closed}
        </Alert>
      ) : (
        <Form method="post">
          <Stack gap="md">
            <Text fz="sm">{labels.note}</Text>
            <TextInput
              name="code"
              label={labels.code}
              required
              pattern="[0-9]{4,8}"
              inputMode="numeric"
              autoComplete="one-time-code"
              dir="ltr"
              error={actionData?.invalid ? labels.invalid : undefined}
              errorProps={{ role: "alert" }}
            />
            <Group grow>
              <Button type="submit" name="intent" value="authenticate" loading={busy}>
                {labels.authenticate}
              </Button>
              <Button type="submit" name="intent" value="cancel" variant="default" formNoValidate>
                {labels.cancel}
              </Button>
            </Group>
          </Stack>
        </Form>
      )}
    </SandboxFrame>
  );
}

export function meta() {
  return [{ title: "3-D Secure Sandbox" }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <SandboxFrame
      gateway="3-D Secure"
      lang="en"
      title={notFound ? "Session not found" : "Something went wrong"}
      tone="error"
    >
      {notFound ? "This checkout session does not exist." : "Please try again."}
    </SandboxFrame>
  );
}
