import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Card, Group, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/help";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantBranding } from "~/domain/merchants/merchants.server";
import { HELP_SUBJECTS, HelpSchema } from "~/domain/messaging/help-schema";
import { sendHelpRequest } from "~/domain/messaging/help.server";
import { env } from "~/lib/env.server";
import { flashCookie } from "~/web/flash.server";
import { requireUser } from "~/web/guards.server";
import { getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "المساعدة والدعم" : "Help and support" }];
}

export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireUser(context, request);
  return { email: user.email };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireUser(context, request);
  const submission = parseWithZod(await readFormData(request), { schema: HelpSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const db = getDbFrom(context);
  const branding = await loadMerchantBranding(db, user.merchantId);
  await sendHelpRequest(db, {
    user,
    merchantTitle: branding.title_en,
    supportAddress: env().SUPPORT_EMAIL,
    email: submission.value.email,
    subject: submission.value.subject,
    message: submission.value.email_message ?? "",
  });
  return redirect(`/${params.lang}/help`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "help.sent" }) },
  });
}

export default function Help() {
  const { t } = useTranslation();
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "help",
    lastResult,
    defaultValue: { email },
    constraint: {
      email: { required: true, maxLength: 254 },
      subject: { required: true },
      email_message: { maxLength: 5000 },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: HelpSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const subjects = [
    { value: "", label: t("help.choose_subject") },
    ...HELP_SUBJECTS.map((value) => ({ value, label: t(`help.subjects.${value}`) })),
  ];
  return (
    <Stack maw={640}>
      <PageHeader title={t("help.title")} description={t("help.subtitle")} />
      <Card withBorder padding="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <FormErrors errors={form.errors} id={form.errorId} />
            <TextField field={fields.email} label={t("help.email")} type="email" autoComplete="email" />
            <SelectField field={fields.subject} label={t("help.subject")} options={subjects} />
            <TextareaField field={fields.email_message} label={t("help.message")} autosize minRows={5} maxRows={12} />
            <Group>
              <Button type="submit" loading={busy}>
                {t("help.submit")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
