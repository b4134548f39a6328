import { Anchor, Badge, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/merchants";
import { CheckboxChoice } from "~/components/choice";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import {
  checkNewMerchant,
  createMerchantWithAdmin,
  listMerchantsForOperator,
} from "~/domain/identity/onboarding.server";
import { formatDateTime } from "~/lib/format";
import type { Language } from "~/lib/i18n";
import { MENU_SECTIONS } from "~/sections/registry";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { linkBaseUrl } from "~/web/sign-in.server";

/** The sections a new merchant can start with: the built ones, all their features. */
const OFFERED = MENU_SECTIONS.map((section) => ({
  key: section.key,
  features: section.features.map((feature) => feature.key),
}));

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "التجار على المنصة" : "Merchants on the platform" }];
}

function requireOperator(context: Route.LoaderArgs["context"], request: Request) {
  const auth = requireUser(context, request);
  // Not an operator: the page does not exist for them.
  if (!auth.user.isOperator) notFound();
  return auth;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperator(context, request);
  return {
    merchants: await listMerchantsForOperator(getDbFrom(context)),
    sections: OFFERED.map((section) => section.key),
  };
}

type ActionResult = { errors?: Record<string, string[]>; values?: Record<string, string | string[]> };

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireOperator(context, request);
  const form = await readFormData(request);
  const text = (name: string) => String(form.get(name) ?? "");
  const values = {
    name: text("name"),
    title_en: text("title_en"),
    title_ar: text("title_ar"),
    admin_username: text("admin_username"),
    admin_email: text("admin_email"),
    lang: text("lang"),
    sections: form.getAll("sections").map(String),
  };
  const checked = checkNewMerchant(values);
  if (Object.keys(checked.errors).length)
    return data<ActionResult>({ errors: checked.errors, values }, { status: 400 });
  const created = await createMerchantWithAdmin(getDbFrom(context), {
    ...checked.value,
    sections: OFFERED.filter((section) => values.sections.includes(section.key)),
    actor: { id: auth.user.id, username: auth.user.username },
    baseUrl: linkBaseUrl(),
    lang: values.lang === "ar" ? "ar" : "en",
    ip: context.get(clientAddressContext),
  });
  if (!created.ok)
    return data<ActionResult>({ errors: { [created.field ?? "name"]: [created.code] }, values }, { status: 400 });
  return redirect(`/${params.lang}/operator`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "operator.created_done" }) },
  });
}

export default function OperatorPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = params.lang as Language;
  const { merchants, sections } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const error = (field: string) => result?.errors?.[field]?.map((key) => t(key)).join(" ") || undefined;
  const value = (field: string) => result?.values?.[field] as string | undefined;
  type Merchant = (typeof merchants)[number];
  const columns: DataColumn<Merchant>[] = [
    {
      key: "name",
      header: t("operator.name"),
      cell: (merchant) => (
        <Text size="sm" fw={600}>
          {lang === "ar" ? merchant.title_ar : merchant.title_en}
        </Text>
      ),
    },
    { key: "id", header: t("operator.id"), nowrap: true, cell: (merchant) => merchant.id },
    { key: "users", header: t("operator.users"), nowrap: true, cell: (merchant) => merchant.users },
    {
      key: "created",
      header: t("operator.created"),
      nowrap: true,
      cell: (merchant) => formatDateTime(merchant.created_at, lang),
    },
    {
      key: "state",
      header: t("operator.state"),
      nowrap: true,
      cell: (merchant) => (
        <Badge color={merchant.is_active ? "green" : "gray"} variant="light">
          {t(merchant.is_active ? "operator.active" : "operator.inactive")}
        </Badge>
      ),
    },
  ];
  return (
    <Stack maw={1000}>
      <PageHeader title={t("operator.title")} description={t("operator.subtitle")} />
      <Anchor component={Link} to={`/${lang}/operator/wallets`} size="sm">
        {t("operator.wallets_link")}
      </Anchor>
      <DataTable
        rows={merchants}
        rowKey={(merchant) => merchant.id}
        empty="—"
        minWidth={640}
        hover={false}
        columns={columns}
      />
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <Text fw={600} component="h2" size="lg">
              {t("operator.new")}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                name="name"
                label={t("operator.fields.name")}
                required
                maxLength={100}
                defaultValue={value("name")}
                error={error("name")}
              />
              <TextInput
                name="title_en"
                label={t("operator.fields.title_en")}
                maxLength={100}
                defaultValue={value("title_en")}
                error={error("title_en")}
              />
              <TextInput
                name="title_ar"
                label={t("operator.fields.title_ar")}
                maxLength={100}
                dir="rtl"
                defaultValue={value("title_ar")}
                error={error("title_ar")}
              />
              <TextInput
                name="admin_username"
                label={t("operator.fields.admin_username")}
                required
                dir="ltr"
                maxLength={150}
                defaultValue={value("admin_username")}
                error={error("admin_username")}
              />
              <TextInput
                name="admin_email"
                type="email"
                label={t("operator.fields.admin_email")}
                required
                dir="ltr"
                maxLength={254}
                defaultValue={value("admin_email")}
                error={error("admin_email")}
              />
              <NativeSelect
                name="lang"
                label={t("operator.fields.lang")}
                defaultValue={value("lang") ?? lang}
                data={[
                  { value: "en", label: "English" },
                  { value: "ar", label: "العربية" },
                ]}
              />
            </SimpleGrid>
            <fieldset className="plain-fieldset">
              <legend className="choice-legend">{t("operator.fields.sections")}</legend>
              <Group gap="md">
                {sections.map((key) => (
                  <CheckboxChoice
                    key={key}
                    name="sections"
                    value={key}
                    defaultChecked={(result?.values?.sections as string[] | undefined)?.includes(key)}
                    label={t(`sections.${key}`)}
                  />
                ))}
              </Group>
            </fieldset>
            <Text size="sm" c="dimmed">
              {t("operator.note")}
            </Text>
            <Group>
              <Button type="submit" loading={busy}>
                {t("operator.create")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
