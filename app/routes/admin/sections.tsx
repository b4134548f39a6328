import { Anchor, Badge, Button, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/sections";
import { Callout } from "~/components/callout";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { installSection, listSectionStates, uninstallSection } from "~/domain/merchants/sections-admin.server";
import { ADMIN_SECTIONS, findAdminSection } from "~/sections/admin-sections.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { notFound, requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الأقسام" : "Sections" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const states = await listSectionStates(getDbFrom(context), auth.user.merchantId, ADMIN_SECTIONS);
  return {
    sections: ADMIN_SECTIONS.map((section, index) => ({
      key: section.key,
      installed: states[index].installed,
      features: section.features,
      hasTransactions: section.features.includes("transactions"),
      hasSettings: section.settings.length > 0,
    })),
  };
}

/** One button per change, each a plain form: `change` is "<section key>:install" or "<section key>:uninstall". */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const match = /^([a-z_]{1,40}):(install|uninstall)$/.exec(String((await readFormData(request)).get("change") ?? ""));
  if (!match) return data({ error: "admin.sections.errors.unknown_change" }, { status: 400 });
  const section = findAdminSection(match[1]);
  if (!section) notFound();
  const input = {
    merchantId: auth.user.merchantId,
    actor: { id: auth.user.id, username: auth.user.username },
    section,
    ip: context.get(clientAddressContext),
  };
  const install = match[2] === "install";
  await (install ? installSection : uninstallSection)(getDbFrom(context), input);
  const message = install ? "admin.sections.done.installed" : "admin.sections.done.uninstalled";
  return redirect(`/${params.lang}/admin/sections`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
  });
}

export default function SectionsPage({ params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { sections } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  type Row = (typeof sections)[number];
  const name = (section: Row) => t(`sections.${section.key}`);
  const columns: DataColumn<Row>[] = [
    {
      key: "section",
      header: t("admin.sections.section"),
      cell: (section) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {name(section)}
          </Text>
          {section.features.length ? (
            <Text size="xs" c="dimmed">
              {section.features
                .map((feature) => t(`features.${section.key}.${feature}`))
                .join(t("common.list_separator"))}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: "state",
      header: t("admin.sections.state"),
      nowrap: true,
      cell: (section) => (
        <Badge color={section.installed ? "green" : "gray"} variant="light">
          {t(section.installed ? "admin.sections.installed" : "admin.sections.not_installed")}
        </Badge>
      ),
    },
    {
      key: "change",
      header: t("admin.sections.change"),
      cell: (section) =>
        section.installed ? (
          <details>
            <summary className="link-summary">{t("admin.sections.uninstall")}</summary>
            <Form method="post">
              <Text size="sm" my={6} maw={360}>
                {t("admin.sections.uninstall_confirm", { section: name(section) })}
                {section.hasTransactions ? ` ${t("admin.sections.uninstall_keeps_transactions")}` : null}
              </Text>
              <Button
                type="submit"
                name="change"
                value={`${section.key}:uninstall`}
                size="xs"
                color="red"
                disabled={busy}
              >
                {t("admin.sections.uninstall_now", { section: name(section) })}
              </Button>
            </Form>
          </details>
        ) : (
          <Form method="post">
            <Button
              type="submit"
              name="change"
              value={`${section.key}:install`}
              size="compact-sm"
              variant="default"
              disabled={busy}
              aria-label={t("admin.sections.install_section", { section: name(section) })}
            >
              {t("admin.sections.install")}
            </Button>
          </Form>
        ),
    },
    {
      key: "settings",
      header: t("admin.sections.settings"),
      nowrap: true,
      cell: (section) =>
        section.hasSettings ? (
          <Anchor
            component={Link}
            to={`/${params.lang}/admin/sections/${section.key}`}
            size="sm"
            aria-label={t("admin.sections.open_settings", { section: name(section) })}
          >
            {t("admin.sections.settings")}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {t("admin.sections.no_settings")}
          </Text>
        ),
    },
  ];
  return (
    <Stack maw={1100}>
      <PageHeader title={t("admin.sections.title")} description={t("admin.sections.subtitle")} />
      {result?.error ? (
        <Callout color="red" role="alert">
          {t(result.error)}
        </Callout>
      ) : null}
      <DataTable
        rows={sections}
        rowKey={(section) => section.key}
        empty="—"
        minWidth={760}
        hover={false}
        columns={columns}
      />
      <Text size="sm" c="dimmed">
        {t("admin.sections.note")}
      </Text>
    </Stack>
  );
}
