import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Card, Group, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/user.password";
import { FormErrors, PasswordField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { PasswordRules } from "~/components/password-rules";
import { changePassword } from "~/domain/identity/passwords.server";
import { isLanguage } from "~/lib/i18n";
import { flashCookie } from "~/web/flash.server";
import { requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { startWebSession } from "~/web/sign-in.server";
import { readFormData } from "~/web/form-data.server";

const required = { error: "errors.required" };

const ChangePasswordSchema = z.object({
  old_password: z.string(required).min(1, "errors.required").max(128, "errors.too_long"),
  new_password: z.string(required).min(1, "errors.required").max(128, "errors.too_long"),
  repeat_password: z.string(required).min(1, "errors.required").max(128, "errors.too_long"),
});

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "تغيير كلمة المرور" : "Change password" }];
}

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  const submission = parseWithZod(await readFormData(request), { schema: ChangePasswordSchema });
  const hideFields = ["old_password", "new_password", "repeat_password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const db = getDbFrom(context);
  const outcome = await changePassword(db, {
    userId: auth.user.id,
    currentPassword: submission.value.old_password,
    newPassword: submission.value.new_password,
    repeatPassword: submission.value.repeat_password,
    lang: isLanguage(params.lang) ? params.lang : "en",
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok) {
    const { non_field_errors: formErrors, ...fieldErrors } = outcome.errors;
    return data(submission.reply({ formErrors, fieldErrors, hideFields }), { status: 400 });
  }
  // Every session of the user has ended, this one included; this browser continues on a new one.
  const response = await startWebSession(
    context,
    request,
    { id: auth.user.id, merchant_id: auth.user.merchantId },
    `/${params.lang}/user`,
  );
  response.headers.append("Set-Cookie", flashCookie({ kind: "success", message: "password.changed" }));
  return response;
}

export default function ChangePassword() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "change-password",
    lastResult,
    constraint: {
      old_password: { required: true, maxLength: 128 },
      new_password: { required: true, maxLength: 128 },
      repeat_password: { required: true, maxLength: 128 },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Stack maw={560}>
      <PageHeader title={t("password.title")} />
      <Card withBorder padding="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <FormErrors errors={form.errors} id={form.errorId} />
            <PasswordField
              field={fields.old_password}
              label={t("password.old_password")}
              autoComplete="current-password"
            />
            <PasswordField field={fields.new_password} label={t("password.new_password")} autoComplete="new-password" />
            <PasswordField
              field={fields.repeat_password}
              label={t("password.repeat_password")}
              autoComplete="new-password"
            />
            <PasswordRules />
            <Group>
              <Button type="submit" loading={busy}>
                {t("password.submit")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
