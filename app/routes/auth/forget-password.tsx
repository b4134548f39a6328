import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Anchor, Button, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/forget-password";
import { AuthCard } from "~/components/auth-card";
import { FormErrors, TextField } from "~/components/forms";
import { requestPasswordReset } from "~/domain/identity/passwords.server";
import { requireAnonymous } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { readFormData } from "~/web/form-data.server";

const ForgotPasswordSchema = z.object({
  username: z.string({ error: "errors.required" }).trim().min(1, "errors.required").max(150, "errors.too_long"),
});

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "نسيت كلمة المرور" : "Forgot password" }];
}

export function loader({ context, request }: Route.LoaderArgs) {
  requireAnonymous(context, request);
  return null;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  requireAnonymous(context, request);
  const submission = parseWithZod(await readFormData(request), { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data({ sent: false, result: submission.reply() }, { status: 400 });
  await requestPasswordReset(getDbFrom(context), {
    username: submission.value.username,
    baseUrl: linkBaseUrl(),
    lang: isLanguage(params.lang) ? params.lang : "en",
    ip: context.get(clientAddressContext),
  });
  return { sent: true, result: null };
}

export default function ForgetPassword() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result ?? null,
    constraint: { username: { required: true, maxLength: 150 } },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: "onBlur",
  });
  const backToLogin = (
    <Anchor component={Link} to="../login" relative="path" size="sm" ta="center">
      {t("forgot.back_to_login")}
    </Anchor>
  );
  if (actionData?.sent) {
    return (
      <AuthCard title={t("forgot.title")}>
        <Alert color="green" variant="light" role="status">
          {t("forgot.sent")}
        </Alert>
        {backToLogin}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("forgot.title")} subtitle={t("forgot.subtitle")}>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <TextField field={fields.username} label={t("login.username")} autoComplete="username" />
          <Button type="submit" loading={busy} fullWidth>
            {t("forgot.submit")}
          </Button>
          {backToLogin}
        </Stack>
      </Form>
    </AuthCard>
  );
}
