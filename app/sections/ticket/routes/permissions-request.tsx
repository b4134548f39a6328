import { Anchor, Card, Stack, Table } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/permissions-request";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { PageHeader } from "~/components/page-header";
import { DecisionButtons, DecisionOutcome } from "~/sections/ticket/components/decision-buttons";
import { RequestStateBadge } from "~/sections/ticket/components/request-state-badge";
import { isRequestDecision } from "~/domain/approvals/operation-requests.server";
import {
  decidePermissionRequest,
  findPermissionRequest,
  permissionRequestDecisions,
} from "~/domain/approvals/permission-requests.server";
import { formatDateTime } from "~/lib/format";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${params.lang === "ar" ? "طلب صلاحية" : "Permission request"} #${params.requestId}` }];
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
  const row = await findPermissionRequest(getDbFrom(context), auth.user.merchantId, Number(params.requestId));
  if (!row) notFound();
  const fullName = [row.first_name, row.last_name].filter(Boolean).join(" ");
  return {
    lang,
    id: row.id,
    state: row.state,
    decisions: permissionRequestDecisions(row, auth.user),
    rows: [
      ["tickets.columns.user", fullName ? `${row.username} — ${fullName}` : row.username],
      ["tickets.columns.email", row.email],
      ["tickets.columns.permission", `tickets.permission_names.${row.permission}`, true],
      ["tickets.columns.requested_by", row.requested_by_name],
      ["tickets.columns.checker", row.checker_name ?? "—"],
      ["tickets.columns.created", formatDateTime(row.created_at, lang)],
      ["tickets.columns.decided", row.decided_at ? formatDateTime(row.decided_at, lang) : "—"],
    ] as [string, string, boolean?][],
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const intent = (await readFormData(request)).get("intent");
  if (!isRequestDecision(intent))
    return data({ error: translator(lang)("tickets.errors.unknown_decision") }, { status: 400 });
  const outcome = await decidePermissionRequest(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: auth.user,
    requestId: Number(params.requestId),
    decision: intent,
  });
  if (!outcome.ok && statusOf(outcome) === 404) notFound();
  if (!outcome.ok) return data({ error: messageOf(outcome, lang) }, { status: statusOf(outcome) });
  return { done: messageOf(outcome, lang) };
}

export default function PermissionRequestDetails() {
  const { t } = useTranslation();
  const details = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <Stack>
      <PageHeader title={t("tickets.details_title", { id: details.id })}>
        <RequestStateBadge state={details.state} />
      </PageHeader>
      <DecisionOutcome result={result} />
      <Card withBorder padding="lg">
        <Table variant="vertical" layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={200}>{t("tickets.columns.state")}</Table.Th>
              <Table.Td>
                <RequestStateBadge state={details.state} />
              </Table.Td>
            </Table.Tr>
            {details.rows.map(([label, value, translate]) => (
              <Table.Tr key={label}>
                <Table.Th w={200}>{t(label)}</Table.Th>
                <Table.Td style={{ overflowWrap: "anywhere" }}>{translate ? t(value) : value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <DecisionButtons decisions={details.decisions} />
      <Anchor component={Link} to={`/${details.lang}/ticket/approve-permissions`}>
        {t("tickets.back")}
      </Anchor>
    </Stack>
  );
}
