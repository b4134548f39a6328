import { Anchor, Button, Card, Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/collector";
import { CopyField } from "~/components/copy-field";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { listUnits } from "~/domain/merchants/units-admin.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { CollectorFields, type FormState } from "../components/collector-form";
import { CollectorNav } from "../components/collector-nav";
import { CollectorSchema, issuesAsFieldErrors } from "../domain/collector-schema";
import { collectorFormValues, collectorUrl, getCollector, saveCollector } from "../domain/collectors.server";
import { formObject } from "../domain/form-object";
import { findRestrictions } from "../domain/restrictions.server";
import { guardCollectorPage } from "../presentation/guard.server";
import { fieldMessages } from "../presentation/messages.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "صفحة تحصيل" : "Collector page" }];
}

function collectorIdOf(params: { id?: string }) {
  return params.id === undefined ? null : /^\d{1,10}$/.test(params.id) ? Number(params.id) : notFound();
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const id = collectorIdOf(params);
  const { auth, lang, canChange } = await guardCollectorPage(
    context,
    request,
    params,
    "collectors",
    id === null ? "change_collector" : "view_collector",
  );
  const db = getDbFrom(context);
  const collector = id === null ? undefined : await getCollector(db, auth.user.merchantId, id);
  if (id !== null && !collector) notFound();
  const units = await listUnits(db, auth.user.merchantId);
  return {
    lang,
    id,
    canChange,
    values: collectorFormValues(collector),
    units: units.map((unit) => ({ id: unit.id, name: unit.name })),
    link: collector ? collectorUrl(linkBaseUrl(), lang, collector.public_id) : null,
    ownRestrictions: collector ? Boolean(await findRestrictions(db, auth.user.merchantId, collector.id)) : false,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const id = collectorIdOf(params);
  const { auth, lang } = await guardCollectorPage(context, request, params, "collectors", "change_collector");
  const db = getDbFrom(context);
  const form = await readFormData(request);
  const values = formObject(form);
  values.is_active = values.is_active ?? false;
  const parsed = CollectorSchema.safeParse(values);
  if (!parsed.success)
    return data(
      { values, errors: fieldMessages(issuesAsFieldErrors(parsed.error.issues), undefined, lang) },
      { status: 400 },
    );
  const saved = await saveCollector(db, {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    input: parsed.data,
    id: id ?? undefined,
    ip: context.get(clientAddressContext),
  });
  if (!saved.ok) {
    if (saved.notFound) notFound();
    return data({ values, errors: fieldMessages(saved.errors, undefined, lang) }, { status: 400 });
  }
  return redirect(`/${lang}/customer-payment/collectors/${saved.collector.id}`, {
    status: 303,
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "collectors.saved" }) },
  });
}

export default function CollectorPage() {
  const { t } = useTranslation();
  const { lang, id, canChange, values, units, link, ownRestrictions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const state: FormState = reply ? { values: reply.values, errors: reply.errors } : { values, errors: {} };
  return (
    <Stack gap="md" maw={1000}>
      <PageHeader title={id === null ? t("collectors.new") : t("collectors.edit")} />
      <CollectorNav lang={lang} current="collectors" />
      <Anchor component={Link} to={`/${lang}/customer-payment/collectors`}>
        {t("collectors.back")}
      </Anchor>
      {link ? (
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <CopyField label={t("collectors.public_link")} value={link} />
            <Group gap="md">
              <Text size="sm">{t("collectors.poster.title")}:</Text>
              <Anchor href={`/${lang}/customer-payment/collectors/${id}/poster.pdf?language=en`}>
                {t("collectors.poster.english")}
              </Anchor>
              <Anchor href={`/${lang}/customer-payment/collectors/${id}/poster.pdf?language=ar`}>
                {t("collectors.poster.arabic")}
              </Anchor>
            </Group>
            <Group gap="md">
              <Text size="sm">
                {ownRestrictions ? t("collectors.own_restrictions") : t("collectors.merchant_restrictions")}
              </Text>
              <Anchor component={Link} to={`/${lang}/customer-payment/payment-restriction?collector=${id}`}>
                {t("collectors.edit_restrictions")}
              </Anchor>
            </Group>
          </Stack>
        </Card>
      ) : null}
      <Card withBorder padding="lg">
        <Form method="post" key={JSON.stringify(state.values)}>
          <fieldset disabled={!canChange} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="md">
              <FormErrors errors={state.errors.non_field_errors ? [state.errors.non_field_errors] : undefined} />
              <CollectorFields state={state} units={units} />
              {canChange ? (
                <Group>
                  <Button type="submit">{t("collectors.save")}</Button>
                </Group>
              ) : null}
            </Stack>
          </fieldset>
        </Form>
      </Card>
    </Stack>
  );
}
