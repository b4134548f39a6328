import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/sites";
import { FormErrors } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { PairingNav } from "../components/pairing-nav";
import { LABEL_MAX } from "../domain/normalize";
import { listSites, loadDefaultLabel, removeSite, saveDefaultLabel, saveSite } from "../domain/sites.server";
import { fieldMessages, guardPairingPage } from "../presentation/guard.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "المواقع المُحيلة" : "Referring sites" }];
}

/** The merchant's sites that send customers to /cpr, each with the paired field's label there, and the default label. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { auth, lang, canChange } = await guardPairingPage(context, request, params, "sites");
  const db = getDbFrom(context);
  const sites = await listSites(db, auth.user.merchantId);
  return {
    lang,
    canChange,
    defaults: await loadDefaultLabel(db, auth.user.merchantId),
    sites: sites.map((site) => ({ id: site.id, host: site.host, label_en: site.label_en, label_ar: site.label_ar })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { auth, lang } = await guardPairingPage(context, request, params, "sites", true);
  const db = getDbFrom(context);
  const form = await readFormData(request);
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 300);
  const intent = text("intent");
  const id = /^\d{1,10}$/.test(text("id")) ? Number(text("id")) : undefined;
  const actor = { id: auth.user.id, username: auth.user.username };
  const ip = context.get(clientAddressContext);
  const values = { host: text("host"), label_en: text("label_en"), label_ar: text("label_ar") };
  const done = (message: string) =>
    redirect(`/${lang}/code-pairing/sites`, {
      status: 303,
      headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
    });
  if (intent === "remove" && id !== undefined) {
    if (await removeSite(db, { merchantId: auth.user.merchantId, actor, id, ip }))
      return done("code_pairing.sites.removed");
    return redirect(`/${lang}/code-pairing/sites`, {
      status: 303,
      headers: { "Set-Cookie": flashCookie({ kind: "error", message: "code_pairing.sites.not_found" }) },
    });
  }
  const saved =
    intent === "default"
      ? await saveDefaultLabel(db, { merchantId: auth.user.merchantId, actor, ...values, ip })
      : intent === "save" && id !== undefined
        ? await saveSite(db, {
            merchantId: auth.user.merchantId,
            actor,
            id,
            label_en: values.label_en,
            label_ar: values.label_ar,
            ip,
          })
        : await saveSite(db, { merchantId: auth.user.merchantId, actor, ...values, ip });
  if (!saved.ok)
    return data(
      {
        form: intent === "save" ? `site-${id}` : intent === "default" ? "default" : "add",
        values,
        errors: fieldMessages(saved.errors, lang),
      },
      { status: 400 },
    );
  return done("code_pairing.sites.saved");
}

type Reply = { form: string; values: Record<string, string>; errors: Record<string, string> } | undefined;

function LabelFields({
  values,
  errors,
  disabled,
}: {
  values: Record<string, string>;
  errors: Record<string, string>;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        name="label_en"
        label={t("code_pairing.sites.label_en")}
        placeholder="Civil ID"
        defaultValue={values.label_en ?? ""}
        error={errors.label_en}
        maxLength={LABEL_MAX}
        dir="ltr"
        disabled={disabled}
      />
      <TextInput
        name="label_ar"
        label={t("code_pairing.sites.label_ar")}
        placeholder="الرقم المدني"
        defaultValue={values.label_ar ?? ""}
        error={errors.label_ar}
        maxLength={LABEL_MAX}
        dir="rtl"
        disabled={disabled}
      />
    </>
  );
}

export default function Sites() {
  const { t } = useTranslation();
  const { lang, canChange, defaults, sites } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply;
  const stateOf = (form: string, values: Record<string, string>) =>
    reply?.form === form
      ? { values: reply.values, errors: reply.errors }
      : { values, errors: {} as Record<string, string> };
  const defaultState = stateOf("default", { label_en: defaults.en, label_ar: defaults.ar });
  const addState = stateOf("add", {});
  return (
    <Stack gap="md" maw={1000}>
      <PageHeader title={t("code_pairing.sites.title")} description={t("code_pairing.sites.intro")} />
      <PairingNav lang={lang} current="sites" />
      <Card withBorder padding="lg">
        <Form method="post" key={`default-${JSON.stringify(defaultState.values)}`}>
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t("code_pairing.sites.default_title")}
            </Title>
            <Text size="sm" c="dimmed">
              {t("code_pairing.sites.default_hint")}
            </Text>
            <FormErrors
              errors={defaultState.errors.non_field_errors ? [defaultState.errors.non_field_errors] : undefined}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <LabelFields values={defaultState.values} errors={defaultState.errors} disabled={!canChange} />
            </SimpleGrid>
            {canChange ? (
              <Group>
                <Button type="submit" name="intent" value="default" variant="light">
                  {t("code_pairing.sites.save_default")}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Form>
      </Card>
      {sites.length === 0 ? <Text c="dimmed">{t("code_pairing.sites.empty")}</Text> : null}
      {sites.map((site) => {
        const state = stateOf(`site-${site.id}`, { label_en: site.label_en, label_ar: site.label_ar });
        return (
          <Card key={site.id} withBorder padding="lg">
            <Form method="post" key={JSON.stringify(state.values)}>
              <input type="hidden" name="id" value={site.id} />
              <Stack gap="sm">
                <Group justify="space-between" wrap="wrap">
                  <Title order={2} size="h4" dir="ltr">
                    {site.host}
                  </Title>
                  <Anchor
                    href={`/${lang}/cpr?site=${encodeURIComponent(site.host)}`}
                    target="_blank"
                    rel="noopener"
                    size="sm"
                  >
                    {t("code_pairing.sites.open_page")}
                  </Anchor>
                </Group>
                <FormErrors errors={state.errors.non_field_errors ? [state.errors.non_field_errors] : undefined} />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <LabelFields values={state.values} errors={state.errors} disabled={!canChange} />
                </SimpleGrid>
                {canChange ? (
                  <Group>
                    <Button type="submit" name="intent" value="save" variant="light">
                      {t("code_pairing.sites.save")}
                    </Button>
                    <Button
                      type="submit"
                      name="intent"
                      value="remove"
                      variant="subtle"
                      color="red"
                      aria-label={t("code_pairing.sites.remove_site", { host: site.host })}
                    >
                      {t("code_pairing.sites.remove")}
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            </Form>
          </Card>
        );
      })}
      {canChange ? (
        <Card withBorder padding="lg">
          <Form method="post" key={`add-${JSON.stringify(addState.values)}`}>
            <Stack gap="sm">
              <Title order={2} size="h4">
                {t("code_pairing.sites.add_title")}
              </Title>
              <FormErrors errors={addState.errors.non_field_errors ? [addState.errors.non_field_errors] : undefined} />
              <TextInput
                id="cpr-site-host"
                name="host"
                label={t("code_pairing.sites.host")}
                description={t("code_pairing.sites.host_hint")}
                required
                placeholder="www.example.com.kw"
                defaultValue={addState.values.host ?? ""}
                error={addState.errors.host}
                maxLength={253}
                dir="ltr"
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <LabelFields values={addState.values} errors={addState.errors} disabled={false} />
              </SimpleGrid>
              <Group>
                <Button type="submit" name="intent" value="add">
                  {t("code_pairing.sites.add")}
                </Button>
              </Group>
            </Stack>
          </Form>
        </Card>
      ) : null}
    </Stack>
  );
}
