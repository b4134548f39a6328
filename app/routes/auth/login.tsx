import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Button, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/login";
import { AuthCard } from "~/components/auth-card";
import { FormErrors, PasswordField, TextField } from "~/components/forms";
import { attemptLogin, verifyLoginCode } from "~/domain/identity/login.server";
import { requireAnonymous, safeRedirectPath } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { getAppSecret } from "~/lib/secret.server";
import { startWebSession } from "~/web/sign-in.server";
import { readFormData } from "~/web/form-data.server";
import { DEVICE_COOKIE, readCookie } from "~/web/session-cookie.server";

const required = { error: "errors.required" };

const LoginSchema = z.object({
  username: z.string(required).trim().min(1, "errors.required").max(150, "errors.too_long"),
  password: z.string(required).min(1, "errors.required").max(128, "errors.too_long"),
  redirectTo: z.string().max(500).optional(),
});

const CodeSchema = z.object({
  username: z.string(required).max(150),
  code: z
    .string(required)
    .trim()
    .regex(/^\d{6}$/, "login.code_format"),
  redirectTo: z.string().max(500).optional(),
});

type Step =
  | { step: "credentials"; result: SubmissionResult<string[]> | null }
  | { step: "code"; username: string; redirectTo?: string; result: SubmissionResult<string[]> | null };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "تسجيل الدخول" : "Sign in" }];
}

export function loader({ context, request }: Route.LoaderArgs) {
  requireAnonymous(context, request);
  return null;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  requireAnonymous(context, request);
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const ip = context.get(clientAddressContext);
  const formData = await readFormData(request);
  const secret = await getAppSecret(db);
  const deviceToken = readCookie(request, DEVICE_COOKIE);
  const reply = (body: Step, status = 200) => data<Step>(body, { status });

  if (formData.get("intent") === "verify_code") {
    const username = String(formData.get("username") ?? "").slice(0, 150);
    const redirectTo = String(formData.get("redirectTo") ?? "") || undefined;
    const submission = parseWithZod(formData, { schema: CodeSchema });
    if (submission.status !== "success")
      return reply({ step: "code", username, redirectTo, result: submission.reply() }, 400);
    const outcome = await verifyLoginCode(db, { username, code: submission.value.code, ip, deviceToken, lang, secret });
    if (outcome.status === "signed_in") {
      return startWebSession(
        context,
        request,
        outcome.user,
        safeRedirectPath(redirectTo, `/${lang}`),
        outcome.deviceToken,
      );
    }
    if (outcome.status === "wrong_code") {
      const result = submission.reply({ fieldErrors: { code: ["login.wrong_code"] } });
      return reply({ step: "code", username, redirectTo, result }, 400);
    }
    // Not a field error: back to the credentials step, with a notice.
    const message = outcome.status === "throttled" ? "login.throttled" : "login.code_expired";
    return reply({ step: "credentials", result: { status: "error", error: { "": [message] } } }, 400);
  }

  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return reply({ step: "credentials", result: submission.reply({ hideFields: ["password"] }) }, 400);
  }
  const { username, password, redirectTo } = submission.value;
  const outcome = await attemptLogin(db, { username, password, ip, deviceToken, lang, secret });
  if (outcome.status === "signed_in") {
    return startWebSession(
      context,
      request,
      outcome.user,
      safeRedirectPath(redirectTo, `/${lang}`),
      outcome.deviceToken,
    );
  }
  if (outcome.status === "code_required") {
    return reply({ step: "code", username: outcome.user.username, redirectTo, result: null });
  }
  const message = outcome.status === "invalid" ? "login.invalid_credentials" : "login.throttled";
  const result = submission.reply({ formErrors: [message], hideFields: ["password"] });
  return reply({ step: "credentials", result }, outcome.status === "invalid" ? 400 : 429);
}

export default function Login() {
  const actionData = useActionData<typeof action>();
  if (actionData?.step === "code") {
    return (
      <CodeStep
        key="code"
        username={actionData.username}
        redirectTo={actionData.redirectTo}
        lastResult={actionData.result}
      />
    );
  }
  return <CredentialsStep key="credentials" lastResult={actionData?.result ?? null} />;
}

function CredentialsStep({ lastResult }: { lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: { username: { required: true, maxLength: 150 }, password: { required: true, maxLength: 128 } },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title={t("login.title")} subtitle={t("login.subtitle")}>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          <input type="hidden" name="intent" value="login" />
          <TextField field={fields.username} label={t("login.username")} autoComplete="username" />
          <PasswordField field={fields.password} label={t("login.password")} autoComplete="current-password" />
          <Button type="submit" loading={busy} fullWidth>
            {t("login.submit")}
          </Button>
          <Anchor component={Link} to="../forget-password" relative="path" size="sm" ta="center">
            {t("login.forgot_link")}
          </Anchor>
        </Stack>
      </Form>
    </AuthCard>
  );
}

function CodeStep(props: { username: string; redirectTo?: string; lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "login-code",
    lastResult: props.lastResult,
    constraint: { code: { required: true, pattern: "\\d{6}" } },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CodeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title={t("login.code_title")} subtitle={t("login.code_sent")}>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="intent" value="verify_code" />
          <input type="hidden" name="username" value={props.username} />
          <input type="hidden" name="redirectTo" value={props.redirectTo ?? ""} />
          <TextField
            field={fields.code}
            label={t("login.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
          />
          <Button type="submit" loading={busy} fullWidth>
            {t("login.verify")}
          </Button>
          <Text size="sm" ta="center">
            <Anchor href="">{t("login.back_to_credentials")}</Anchor>
          </Text>
        </Stack>
      </Form>
    </AuthCard>
  );
}
