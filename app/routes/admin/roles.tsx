import { Button, Card, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/roles";
import { PermissionChoices } from "~/components/admin/permission-choices";
import { Callout } from "~/components/callout";
import { PageHeader } from "~/components/page-header";
import { checkRoleInput, createRole, deleteRole, listRoles, updateRole } from "~/domain/identity/roles.server";
import { builtPermissions } from "~/sections/registry";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "الأدوار" : "Roles" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  return { roles: await listRoles(getDbFrom(context), auth.user.merchantId), permissions: builtPermissions() };
}

type ActionResult = {
  role?: string;
  errors?: Record<string, string[]>;
  values?: { name: string; permissions: string[] };
};

/** `intent`: create, save (id) or delete (id). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const db = getDbFrom(context);
  const manager = managerOf(auth.user);
  const ip = context.get(clientAddressContext);
  const intent = String(form.get("intent") ?? "");
  const id = /^\d{1,9}$/.test(String(form.get("id") ?? "")) ? Number(form.get("id")) : null;
  const done = (message: string) =>
    redirect(`/${params.lang}/admin/roles`, { headers: { "Set-Cookie": flashCookie({ kind: "success", message }) } });
  const which = id === null ? "new" : String(id);
  if (intent === "delete" && id !== null) {
    const deleted = await deleteRole(db, { manager, id, ip });
    if (!deleted.ok)
      return data<ActionResult>({ role: which, errors: { non_field_errors: [deleted.code] } }, { status: 400 });
    return done("admin.roles.deleted");
  }
  const values = { name: String(form.get("name") ?? ""), permissions: form.getAll("permissions").map(String) };
  const checked = checkRoleInput(values, builtPermissions());
  if (!checked.ok) return data<ActionResult>({ role: which, errors: checked.errors, values }, { status: 400 });
  const outcome =
    intent === "save" && id !== null
      ? await updateRole(db, { manager, id, name: checked.name, permissions: checked.permissions, ip })
      : await createRole(db, { manager, name: checked.name, permissions: checked.permissions, ip });
  if (!outcome.ok)
    return data<ActionResult>(
      { role: which, errors: { [outcome.field ?? "non_field_errors"]: [outcome.code] }, values },
      { status: 400 },
    );
  return done(intent === "save" ? "admin.roles.saved" : "admin.roles.created");
}

export default function RolesPage() {
  const { t } = useTranslation();
  const { roles, permissions } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const errorsFor = (role: string) => (result?.role === role ? (result.errors ?? {}) : {});
  const message = (errors: Record<string, string[]>, field: string) =>
    errors[field]?.map((key) => t(key)).join(" ") || undefined;
  return (
    <Stack maw={1000}>
      <PageHeader title={t("admin.roles.title")} description={t("admin.roles.subtitle")} />
      {roles.length === 0 ? <Text c="dimmed">{t("admin.roles.none")}</Text> : null}
      {roles.map((role) => {
        const errors = errorsFor(String(role.id));
        const chosen = result?.role === String(role.id) && result.values ? result.values.permissions : role.permissions;
        return (
          <Card key={role.id} withBorder padding="lg">
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={600} component="h2">
                  {role.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {t("admin.roles.holders", { count: role.users })}
                </Text>
              </Group>
              <Text size="sm">
                {role.permissions.map((permission) => t(`permissions.${permission}`)).join(t("common.list_separator"))}
              </Text>
              {errors.non_field_errors ? (
                <Callout color="red" role="alert">
                  {message(errors, "non_field_errors")}
                </Callout>
              ) : null}
              <details open={Boolean(errors.name || errors.permissions)}>
                <summary className="link-summary link-summary--plain">
                  {t("admin.roles.edit", { name: role.name })}
                </summary>
                <Form method="post">
                  <input type="hidden" name="id" value={role.id} />
                  <Stack mt="sm">
                    <TextInput
                      name="name"
                      label={t("admin.roles.name")}
                      required
                      maxLength={60}
                      defaultValue={result?.role === String(role.id) ? result.values?.name : role.name}
                      error={message(errors, "name")}
                    />
                    <PermissionChoices
                      permissions={permissions}
                      chosen={chosen}
                      error={message(errors, "permissions")}
                      idPrefix={`role-${role.id}`}
                    />
                    <Group>
                      <Button type="submit" name="intent" value="save" disabled={busy}>
                        {t("admin.roles.save")}
                      </Button>
                      <Button type="submit" name="intent" value="delete" variant="subtle" color="red" disabled={busy}>
                        {t("admin.roles.delete")}
                      </Button>
                    </Group>
                  </Stack>
                </Form>
              </details>
            </Stack>
          </Card>
        );
      })}
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <Text fw={600} component="h2" size="lg">
              {t("admin.roles.new")}
            </Text>
            <TextInput
              name="name"
              label={t("admin.roles.name")}
              description={t("admin.roles.name_hint")}
              required
              maxLength={60}
              defaultValue={result?.role === "new" ? result.values?.name : undefined}
              error={message(errorsFor("new"), "name")}
            />
            <PermissionChoices
              permissions={permissions}
              chosen={result?.role === "new" ? (result.values?.permissions ?? []) : []}
              error={message(errorsFor("new"), "permissions")}
              idPrefix="new"
            />
            {errorsFor("new").non_field_errors ? (
              <Callout color="red" role="alert">
                {message(errorsFor("new"), "non_field_errors")}
              </Callout>
            ) : null}
            <Group>
              <Button type="submit" name="intent" value="create" loading={busy}>
                {t("admin.roles.create")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
    </Stack>
  );
}
