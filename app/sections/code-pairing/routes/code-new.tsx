import {
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/code-new";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { loadMerchantDefaults } from "~/domain/merchants/merchants.server";
import { SUPPORTED_CURRENCIES } from "~/lib/money";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { PairingNav } from "../components/pairing-nav";
import { IssueCodeSchema, issueCode } from "../domain/codes.server";
import { CODE_MAX, PAIR_MAX } from "../domain/normalize";
import { fieldMessages, guardPairingPage } from "../presentation/guard.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "إصدار رمز" : "Issue a code" }];
}

const FIELDS = ["code", "pair", "amount", "currency_code", "description", "use", "max_uses", "expires_at"] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang } = await guardPairingPage(context, request, params, "codes", true);
  const { currency } = await loadMerchantDefaults(getDbFrom(context), auth.user.merchantId);
  return { lang, values: { currency_code: currency, use: "single" } as Record<string, string> };
}

/** Issues the code; every field's error under it, and everything typed kept. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardPairingPage(context, request, params, "codes", true);
  const form = await readFormData(request);
  const values: Record<string, string> = Object.fromEntries(
    FIELDS.map((name) => [name, String(form.get(name) ?? "").slice(0, 600)]),
  );
  const parsed = IssueCodeSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (errors[String(issue.path[0] ?? "non_field_errors")] ??= []).push(issue.message);
    return data({ values, errors: fieldMessages(errors, lang) }, { status: 400 });
  }
  const issued = await issueCode(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    values: parsed.data,
    ip: context.get(clientAddressContext),
  });
  if (!issued.ok) return data({ values, errors: fieldMessages(issued.errors, lang) }, { status: 400 });
  return redirect(`/${lang}/code-pairing/codes`, {
    status: 303,
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "code_pairing.codes.issued" }) },
  });
}

export default function IssueCode() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const values: Record<string, string> = reply?.values ?? loaded.values;
  const errors: Record<string, string> = reply?.errors ?? {};
  const field = (name: string) => ({ name, id: `f-${name}`, defaultValue: values[name] ?? "", error: errors[name] });
  return (
    <Stack gap="md" maw={820}>
      <PageHeader title={t("code_pairing.codes.new")} description={t("code_pairing.codes.new_intro")} />
      <PairingNav lang={loaded.lang} current="codes" />
      <Anchor component={Link} to={`/${loaded.lang}/code-pairing/codes`}>
        {t("code_pairing.codes.back")}
      </Anchor>
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(values)}>
          <Stack gap="md">
            <FormErrors errors={errors.non_field_errors ? [errors.non_field_errors] : undefined} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t("code_pairing.fields.code")}
                description={t("code_pairing.fields.code_hint")}
                maxLength={CODE_MAX + 20}
                autoComplete="off"
                dir="ltr"
                {...field("code")}
              />
              <TextInput
                label={t("code_pairing.fields.pair")}
                description={t("code_pairing.fields.pair_hint")}
                required
                maxLength={PAIR_MAX}
                autoComplete="off"
                dir="auto"
                {...field("pair")}
              />
              <TextInput
                label={t("code_pairing.fields.amount")}
                required
                inputMode="decimal"
                maxLength={20}
                dir="ltr"
                {...field("amount")}
              />
              <NativeSelect
                label={t("code_pairing.fields.currency_code")}
                data={[...SUPPORTED_CURRENCIES]}
                {...field("currency_code")}
              />
            </SimpleGrid>
            <Textarea
              label={t("code_pairing.fields.description")}
              description={t("code_pairing.fields.description_hint")}
              maxLength={500}
              autosize
              minRows={2}
              dir="auto"
              {...field("description")}
            />
            <Radio.Group
              label={t("code_pairing.fields.use")}
              name="use"
              defaultValue={values.use || "single"}
              error={errors.use}
            >
              <Group mt="xs">
                <Radio value="single" label={t("code_pairing.fields.single")} />
                <Radio value="multi" label={t("code_pairing.fields.multi")} />
              </Group>
            </Radio.Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t("code_pairing.fields.max_uses")}
                description={t("code_pairing.fields.max_uses_hint")}
                inputMode="numeric"
                maxLength={7}
                dir="ltr"
                {...field("max_uses")}
              />
              <TextInput
                type="datetime-local"
                label={t("code_pairing.fields.expires_at")}
                description={t("code_pairing.fields.expires_hint")}
                dir="ltr"
                {...field("expires_at")}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit">{t("code_pairing.codes.issue")}</Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
