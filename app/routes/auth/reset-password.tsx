import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Button, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/reset-password";
import { AuthCard } from "~/components/auth-card";
import { FormErrors, PasswordField, TextField } from "~/components/forms";
import { PasswordRules } from "~/components/password-rules";
import { passwordLinkPurpose, resetPassword } from "~/domain/identity/passwords.server";
import { flashCookie } from "~/web/flash.server";
import { requireAnonymous } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

const required = { error: "errors.required" };

const ResetPasswordSchema = z.object({
  token: z.string({ error: "reset.invalid_link" }).max(200),
  username: z.string(required).trim().min(1, "errors.required").max(150, "errors.too_long"),
  new_password: z.string(required).min(1, "errors.required").max(128, "errors.too_long"),
  password_confirmation: z.string(required).min(1, "errors.required").max(128, "errors.too_long"),
});

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إعادة تعيين كلمة المرور" : "Reset password" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  requireAnonymous(context, request);
  const token = new URL(request.url).searchParams.get("token")?.slice(0, 200) ?? "";
  // An invitation's link opens the same form, worded as choosing a first password.
  return { token, invitation: (await passwordLinkPurpose(getDbFrom(context), token)) === "invitation" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  requireAnonymous(context, request);
  const submission = parseWithZod(await readFormData(request), { schema: ResetPasswordSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["new_password", "password_confirmation"] }), { status: 400 });
  }
  const outcome = await resetPassword(getDbFrom(context), {
    token: submission.value.token,
    username: submission.value.username,
    newPassword: submission.value.new_password,
    passwordConfirmation: submission.value.password_confirmation,
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) {
    const { non_field_errors: formErrors, ...fieldErrors } = outcome.errors;
    return data(submission.reply({ formErrors, fieldErrors, hideFields: ["new_password", "password_confirmation"] }), {
      status: 400,
    });
  }
  return redirect(`/${params.lang}/login`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "reset.done" }) },
  });
}

export default function ResetPassword() {
  const { t } = useTranslation();
  const { token, invitation } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    constraint: {
      username: { required: true, maxLength: 150 },
      new_password: { required: true, maxLength: 128 },
      password_confirmation: { required: true, maxLength: 128 },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard
      title={t(invitation ? "reset.invitation_title" : "reset.title")}
      subtitle={t(invitation ? "reset.invitation_subtitle" : "reset.subtitle")}
    >
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="token" value={token} />
          <TextField field={fields.username} label={t("login.username")} autoComplete="username" />
          <PasswordField field={fields.new_password} label={t("reset.new_password")} autoComplete="new-password" />
          <PasswordField
            field={fields.password_confirmation}
            label={t("reset.password_confirmation")}
            autoComplete="new-password"
          />
          <PasswordRules />
          <Button type="submit" loading={busy} fullWidth>
            {t(invitation ? "reset.invitation_submit" : "reset.submit")}
          </Button>
          <Anchor component={Link} to="../login" relative="path" size="sm" ta="center">
            {t("forgot.back_to_login")}
          </Anchor>
        </Stack>
      </Form>
    </AuthCard>
  );
}
