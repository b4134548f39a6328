import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Button, Card, Group, Stack, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/permissions-requests";
import { keyOf, statusOf } from "~/web/outcomes.server";
import { FormErrors, SelectField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { RequestFilterForm } from "~/sections/ticket/components/request-filter-form";
import { DataTable, ListPagination } from "~/components/data-table";
import { RequestStateBadge } from "~/sections/ticket/components/request-state-badge";
import { GRANTABLE_PERMISSIONS, PermissionGrantSchema } from "~/domain/approvals/permission-grant-schema";
import {
  listGrantCandidates,
  listPermissionRequests,
  requestPermissionGrant,
} from "~/domain/approvals/permission-requests.server";
import { permissionRequestFilterChoices } from "../presentation.server";
import { parseRequestQuery, REQUEST_PAGE_SIZES } from "~/domain/approvals/request-filters";
import { flashCookie } from "~/web/flash.server";
import { formatDateTime } from "~/lib/format";
import { requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "طلبات الصلاحيات" : "Permissions Requests" }];
}

async function guard({ context, request }: Pick<Route.LoaderArgs, "context" | "request">) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "ticket", "user_permission_changes");
  requirePermission(auth, "approve_permission_requests");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const query = parseRequestQuery(new URL(request.url).searchParams, GRANTABLE_PERMISSIONS);
  const [list, candidates] = await Promise.all([
    listPermissionRequests(db, {
      merchantId: auth.user.merchantId,
      filters: query.filters,
      limit: query.perPage,
      offset: (query.page - 1) * query.perPage,
    }),
    listGrantCandidates(db, auth.user.merchantId),
  ]);
  return {
    lang,
    choices: permissionRequestFilterChoices(lang),
    raw: query.raw,
    errors: query.errors,
    page: query.page,
    pages: Math.max(1, Math.ceil(list.count / query.perPage)),
    count: list.count,
    candidates: candidates.map((user) => ({
      value: String(user.id),
      label: [user.username, [user.first_name, user.last_name].filter(Boolean).join(" ")].filter(Boolean).join(" — "),
    })),
    rows: list.rows.map((row) => ({
      id: row.id,
      user: row.username,
      permission: row.permission,
      requestedBy: row.requested_by_name,
      checker: row.checker_name,
      state: row.state,
      created: formatDateTime(row.created_at, lang),
    })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const submission = parseWithZod(await readFormData(request), { schema: PermissionGrantSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const outcome = await requestPermissionGrant(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: auth.user,
    userId: submission.value.user,
    permission: submission.value.permission,
    lang,
  });
  if (!outcome.ok) {
    const reply = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [keyOf(outcome)] } })
      : submission.reply({ formErrors: [keyOf(outcome)] });
    return data(reply, { status: statusOf(outcome) });
  }
  return redirect(`/${lang}/ticket/approve-permissions/${outcome.requestId}`, {
    status: 303,
    headers: { "Set-Cookie": flashCookie({ kind: "success", message: "tickets.requested" }) },
  });
}

export default function PermissionsRequests() {
  const { t } = useTranslation();
  const { lang, choices, raw, errors, page, pages, count, rows } = useLoaderData<typeof loader>();
  return (
    <Stack gap={0}>
      <PageHeader
        title={t("features.ticket.user_permission_changes")}
        description={t("tickets.permissions.description")}
      />
      <GrantRequestForm />
      <RequestFilterForm
        choices={choices}
        raw={raw}
        errors={errors}
        typeLabel={t("tickets.columns.permission")}
        perPageChoices={REQUEST_PAGE_SIZES}
      />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={t("tickets.empty")}
        minWidth={760}
        columns={[
          {
            key: "id",
            header: t("tickets.columns.id"),
            cell: (row) => (
              <Anchor
                component={Link}
                to={`/${lang}/ticket/approve-permissions/${row.id}`}
                aria-label={t("tickets.open_request", { id: row.id })}
              >
                #{row.id}
              </Anchor>
            ),
          },
          { key: "user", header: t("tickets.columns.user"), cell: (row) => row.user },
          {
            key: "permission",
            header: t("tickets.columns.permission"),
            cell: (row) => t(`tickets.permission_names.${row.permission}`),
          },
          { key: "requested_by", header: t("tickets.columns.requested_by"), cell: (row) => row.requestedBy },
          { key: "state", header: t("tickets.columns.state"), cell: (row) => <RequestStateBadge state={row.state} /> },
          { key: "checker", header: t("tickets.columns.checker"), cell: (row) => row.checker ?? "—" },
          { key: "created", header: t("tickets.columns.created"), cell: (row) => row.created, nowrap: true },
        ]}
      />
      <ListPagination page={page} pages={pages} count={t("tickets.count", { total: count })} />
    </Stack>
  );
}

/** "Request permission": a staff user and Refund or Void rights; a checker approves it afterwards. */
function GrantRequestForm() {
  const { t } = useTranslation();
  const { candidates } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "permission-grant",
    lastResult,
    constraint: { user: { required: true }, permission: { required: true } },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PermissionGrantSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card withBorder padding="md" mb="md">
      <Title order={2} fz="h4" mb="sm">
        {t("tickets.grant.title")}
      </Title>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="sm">
          <FormErrors errors={form.errors} id={form.errorId} />
          <Group align="flex-start" grow>
            <SelectField
              field={fields.user}
              label={t("tickets.grant.user")}
              options={[{ value: "", label: t("tickets.grant.choose_user") }, ...candidates]}
            />
            <SelectField
              field={fields.permission}
              label={t("tickets.grant.permission")}
              options={[
                { value: "", label: t("tickets.grant.choose_permission") },
                ...GRANTABLE_PERMISSIONS.map((value) => ({ value, label: t(`tickets.permission_names.${value}`) })),
              ]}
            />
          </Group>
          <Group>
            <Button type="submit" loading={busy}>
              {t("tickets.grant.submit")}
            </Button>
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
