import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/users";
import { Callout } from "~/components/callout";
import { DataTable, type DataColumn } from "~/components/data-table";
import { PageHeader } from "~/components/page-header";
import { CheckboxChoice } from "~/components/choice";
import { listRoles, resolveRoles } from "~/domain/identity/roles.server";
import {
  changeUserAccess,
  checkInvitation,
  inviteUser,
  listMerchantUsers,
  loadOperationsApproval,
  setOperationsApproval,
  setUserRoles,
} from "~/domain/identity/user-admin.server";
import { linkBaseUrl } from "~/web/sign-in.server";
import { flashCookie } from "~/web/flash.server";
import { readFormData } from "~/web/form-data.server";
import { requirePermission, requireUser } from "~/web/guards.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { managerOf } from "~/domain/identity/users.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "المستخدمون" : "Users" }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const db = getDbFrom(context);
  const [users, approval, roles] = await Promise.all([
    listMerchantUsers(db, auth.user.merchantId),
    loadOperationsApproval(db, auth.user.merchantId),
    listRoles(db, auth.user.merchantId),
  ]);
  return {
    me: auth.user.id,
    canChangeSuperusers: Boolean(auth.user.is_superuser),
    users,
    approval,
    roles: roles.map((role) => ({ id: role.id, name: role.name })),
  };
}

/** One button per change, each a plain form: `change` is "<user id>:<field>:<on|off>", or "approval:<on|off>". */
export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  requirePermission(auth, "manage_merchant");
  const form = await readFormData(request);
  const manager = managerOf(auth.user);
  const intent = String(form.get("intent") ?? "");
  const roleIds = form
    .getAll("roles")
    .map(String)
    .filter((value) => /^\d{1,9}$/.test(value))
    .map(Number);
  if (intent === "invite") {
    const values = {
      username: String(form.get("username") ?? ""),
      email: String(form.get("email") ?? ""),
      first_name: String(form.get("first_name") ?? ""),
      last_name: String(form.get("last_name") ?? ""),
    };
    const checked = checkInvitation(values);
    const known = (await resolveRoles(getDbFrom(context), auth.user.merchantId, roleIds)).roles.map((role) => role.id);
    if (Object.keys(checked.errors).length)
      return data({ error: undefined, invite: { errors: checked.errors, values, roles: roleIds } }, { status: 400 });
    const invited = await inviteUser(getDbFrom(context), {
      manager,
      invitation: { ...checked.value, roleIds: known, superuser: form.get("is_superuser") === "on" },
      baseUrl: linkBaseUrl(),
      lang: params.lang === "ar" ? "ar" : "en",
      ip: context.get(clientAddressContext),
    });
    if (!invited.ok)
      return data(
        {
          error: undefined,
          invite: { errors: { [invited.field ?? "username"]: [invited.code] }, values, roles: roleIds },
        },
        { status: 400 },
      );
    return redirect(`/${params.lang}/admin/users`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.users.done.invited" }) },
    });
  }
  const rolesOf = /^roles:(\d{1,9})$/.exec(intent);
  if (rolesOf) {
    const known = (await resolveRoles(getDbFrom(context), auth.user.merchantId, roleIds)).roles.map((role) => role.id);
    const set = await setUserRoles(getDbFrom(context), {
      manager,
      userId: Number(rolesOf[1]),
      roleIds: known,
      ip: context.get(clientAddressContext),
    });
    if (!set.ok) return data({ error: set.code }, { status: set.code === "admin.users.errors.not_found" ? 404 : 403 });
    return redirect(`/${params.lang}/admin/users`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message: "admin.users.done.roles" }) },
    });
  }
  const change = String(form.get("change") ?? "");
  const approval = /^approval:(on|off)$/.exec(change);
  if (approval) {
    const actor = { id: auth.user.id, username: auth.user.username };
    await setOperationsApproval(getDbFrom(context), {
      merchantId: auth.user.merchantId,
      actor,
      on: approval[1] === "on",
      ip: context.get(clientAddressContext),
    });
    const message = `admin.users.done.approval_${approval[1]}`;
    return redirect(`/${params.lang}/admin/users`, {
      headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
    });
  }
  const match = /^(\d{1,9}):(is_active|requires_otp):(on|off)$/.exec(change);
  if (!match) return data({ error: "admin.users.errors.not_found" }, { status: 400 });
  const [, id, field, value] = match;
  const outcome = await changeUserAccess(getDbFrom(context), {
    manager: managerOf(auth.user),
    userId: Number(id),
    changes: { [field]: value === "on" },
    ip: context.get(clientAddressContext),
  });
  if (!outcome.ok)
    return data({ error: outcome.code }, { status: outcome.code === "admin.users.errors.not_found" ? 404 : 400 });
  const message = `admin.users.done.${field}_${value}`;
  return redirect(`/${params.lang}/admin/users`, {
    headers: { "Set-Cookie": flashCookie({ kind: "success", message }) },
  });
}

export default function UsersPage() {
  const { t } = useTranslation();
  const { me, canChangeSuperusers, users, approval, roles } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as
    | { error?: string; invite?: { errors: Record<string, string[]>; values: Record<string, string>; roles: number[] } }
    | undefined;
  const invite = result?.invite;
  const inviteError = (field: string) => invite?.errors[field]?.map((key) => t(key)).join(" ") || undefined;
  const busy = useNavigation().state === "submitting";
  type User = (typeof users)[number];
  const columns: DataColumn<User>[] = [
    {
      key: "username",
      header: t("login.username"),
      nowrap: true,
      cell: (user) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600} dir="ltr">
            {user.username}
          </Text>
          {user.is_superuser ? (
            <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
              {t("admin.users.superuser")}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      key: "name",
      header: t("admin.users.name"),
      cell: (user) => [user.first_name, user.last_name].filter(Boolean).join(" ") || "—",
    },
    { key: "email", header: t("user.email"), cell: (user) => <bdi dir="ltr">{user.email}</bdi> },
    {
      key: "roles",
      header: t("admin.users.roles"),
      cell: (user) => (
        <Stack gap={4}>
          <Text size="sm">
            {user.is_superuser
              ? t("admin.users.all_permissions")
              : user.roles.map((role) => role.name).join(t("common.list_separator")) || "—"}
          </Text>
          {user.invitation_pending ? (
            <Badge size="sm" color="yellow" variant="light">
              {t("admin.users.invited")}
            </Badge>
          ) : null}
          {roles.length && !user.is_superuser && user.id !== me ? (
            <details>
              <summary className="link-summary link-summary--plain">
                {t("admin.users.change_roles", { username: user.username })}
              </summary>
              <Form method="post">
                <Stack gap={4} mt={6}>
                  {roles.map((role) => (
                    <CheckboxChoice
                      key={role.id}
                      name="roles"
                      value={role.id}
                      defaultChecked={user.roles.some((held) => held.id === role.id)}
                      label={role.name}
                    />
                  ))}
                  <Button
                    type="submit"
                    name="intent"
                    value={`roles:${user.id}`}
                    size="compact-sm"
                    variant="default"
                    disabled={busy}
                    w="fit-content"
                  >
                    {t("admin.users.save_roles")}
                  </Button>
                </Stack>
              </Form>
            </details>
          ) : null}
        </Stack>
      ),
    },
    {
      key: "access",
      header: t("admin.users.access"),
      nowrap: true,
      cell: (user) => (
        <Form method="post">
          <Group gap="xs" wrap="nowrap">
            <Badge color={user.is_active ? "green" : "gray"} variant="light" style={{ flexShrink: 0 }}>
              {t(user.is_active ? "admin.users.active" : "admin.users.inactive")}
            </Badge>
            {(user.is_superuser && !canChangeSuperusers) || user.id === me ? null : (
              <Button
                type="submit"
                name="change"
                value={`${user.id}:is_active:${user.is_active ? "off" : "on"}`}
                size="compact-sm"
                variant="default"
                disabled={busy}
                style={{ flexShrink: 0 }}
                aria-label={t(user.is_active ? "admin.users.deactivate_user" : "admin.users.reactivate_user", {
                  username: user.username,
                })}
              >
                {t(user.is_active ? "admin.users.deactivate" : "admin.users.reactivate")}
              </Button>
            )}
          </Group>
        </Form>
      ),
    },
    {
      key: "otp",
      header: t("admin.users.otp"),
      nowrap: true,
      cell: (user) => (
        <Form method="post">
          <Group gap="xs" wrap="nowrap">
            <Text size="sm">{t(user.requires_otp ? "admin.users.otp_on" : "admin.users.otp_off")}</Text>
            {user.is_superuser && !canChangeSuperusers ? null : (
              <Button
                type="submit"
                name="change"
                value={`${user.id}:requires_otp:${user.requires_otp ? "off" : "on"}`}
                size="compact-sm"
                variant="default"
                disabled={busy}
                style={{ flexShrink: 0 }}
                aria-label={t(user.requires_otp ? "admin.users.otp_stop_user" : "admin.users.otp_start_user", {
                  username: user.username,
                })}
              >
                {t(user.requires_otp ? "admin.users.otp_stop" : "admin.users.otp_start")}
              </Button>
            )}
          </Group>
        </Form>
      ),
    },
  ];
  return (
    <Stack maw={1100}>
      <PageHeader title={t("admin.users.title")} description={t("admin.users.subtitle")} />
      {result?.error ? (
        <Callout color="red" role="alert">
          {t(result.error)}
        </Callout>
      ) : null}
      <Card withBorder padding="lg">
        <Form method="post">
          <Stack gap="xs">
            <Group justify="space-between" wrap="wrap">
              <Group gap="xs">
                <Text fw={600}>{t("admin.users.approval")}</Text>
                <Badge color={approval.on ? "green" : "gray"} variant="light">
                  {t(approval.on ? "admin.users.approval_on" : "admin.users.approval_off")}
                </Badge>
              </Group>
              <Button
                type="submit"
                name="change"
                value={`approval:${approval.on ? "off" : "on"}`}
                size="compact-sm"
                variant="default"
                disabled={busy}
              >
                {t(approval.on ? "admin.users.approval_stop" : "admin.users.approval_start")}
              </Button>
            </Group>
            <Text size="sm" c="dimmed">
              {t("admin.users.approval_note")}
            </Text>
            <Text size="sm">
              {t("admin.users.checkers", { names: approval.checkers.join(t("common.list_separator")) || "—" })}
            </Text>
          </Stack>
        </Form>
      </Card>
      <DataTable rows={users} rowKey={(user) => user.id} empty="—" minWidth={960} hover={false} columns={columns} />
      <Card withBorder padding="lg">
        <Form method="post" noValidate>
          <Stack>
            <Text fw={600} component="h2" size="lg">
              {t("admin.users.invite_title")}
            </Text>
            <Text size="sm" c="dimmed">
              {t("admin.users.invite_note")}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                name="username"
                label={t("login.username")}
                description={t("admin.users.username_hint")}
                required
                dir="ltr"
                maxLength={150}
                defaultValue={invite?.values.username}
                error={inviteError("username")}
              />
              <TextInput
                name="email"
                type="email"
                label={t("user.email")}
                required
                dir="ltr"
                maxLength={254}
                defaultValue={invite?.values.email}
                error={inviteError("email")}
              />
              <TextInput
                name="first_name"
                label={t("admin.users.first_name")}
                maxLength={150}
                defaultValue={invite?.values.first_name}
              />
              <TextInput
                name="last_name"
                label={t("admin.users.last_name")}
                maxLength={150}
                defaultValue={invite?.values.last_name}
              />
            </SimpleGrid>
            {roles.length ? (
              <fieldset className="plain-fieldset">
                <legend className="choice-legend">{t("admin.users.roles")}</legend>
                <Group gap="md">
                  {roles.map((role) => (
                    <CheckboxChoice
                      key={role.id}
                      name="roles"
                      value={role.id}
                      defaultChecked={invite?.roles.includes(role.id)}
                      label={role.name}
                    />
                  ))}
                </Group>
              </fieldset>
            ) : (
              <Text size="sm" c="dimmed">
                {t("admin.users.no_roles")}
              </Text>
            )}
            {canChangeSuperusers ? (
              <CheckboxChoice name="is_superuser" label={t("admin.users.invite_superuser")} />
            ) : null}
            {inviteError("is_superuser") ? (
              <Text size="sm" c="red">
                {inviteError("is_superuser")}
              </Text>
            ) : null}
            <Group>
              <Button type="submit" name="intent" value="invite" disabled={busy}>
                {t("admin.users.invite")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Card>
      <Text size="sm" c="dimmed">
        {t("admin.users.note")}
      </Text>
    </Stack>
  );
}
