import { Anchor, Card, Stack, Table } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/operations-request";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { resultMessage } from "../presentation.server";
import { PageHeader } from "~/components/page-header";
import { DecisionButtons, DecisionOutcome } from "~/sections/ticket/components/decision-buttons";
import { RequestStateBadge } from "~/sections/ticket/components/request-state-badge";
import {
  findOperationRequest,
  isRequestDecision,
  operationRequestDecisions,
  operationRequestScope,
} from "~/domain/approvals/operation-requests.server";
import { decideOperationRequest } from "~/domain/payments/operations.server";
import { platformAddresses } from "~/web/addresses.server";
import { formatDateTime } from "~/lib/format";
import { notFound, requirePermission, requireSection, requireUser } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/web/request-context.server";
import { readFormData } from "~/web/form-data.server";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `${params.lang === "ar" ? "طلب عملية" : "Operation request"} #${params.requestId}` }];
}

async function guard({ context, request }: Pick<Route.LoaderArgs, "context" | "request">) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "ticket", "operations_approval");
  if (!operationRequestScope(auth.user)) requirePermission(auth, "approve_operations");
  return auth;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const row = await findOperationRequest(getDbFrom(context), auth.user.merchantId, auth.user, Number(params.requestId));
  if (!row) notFound();
  return {
    lang,
    id: row.id,
    state: row.state,
    transactionId: row.transaction_id,
    orderNo: row.order_no,
    decisions: operationRequestDecisions(row, auth.user),
    rows: [
      ["tickets.columns.type", `tickets.types.${row.kind}`, true],
      ["tickets.columns.amount", formatAmount(row.amount, row.currency_code, lang)],
      ["tickets.columns.gateway", (lang === "ar" ? row.gateway_name_ar : row.gateway_name_en) ?? row.gateway_code],
      ["tickets.columns.customer_email", row.customer_email ?? "—"],
      ["tickets.columns.maker", row.maker_name],
      ["tickets.columns.checker", row.checker_name ?? "—"],
      ["tickets.columns.created", formatDateTime(row.created_at, lang)],
      ["tickets.columns.expires", row.state === "pending" ? formatDateTime(row.expires_at, lang) : "—"],
      ["tickets.columns.decided", row.decided_at ? formatDateTime(row.decided_at, lang) : "—"],
      ["tickets.columns.result", resultMessage(row, lang) ?? "—"],
    ] as [string, string, boolean?][],
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = await guard({ context, request });
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const intent = (await readFormData(request)).get("intent");
  if (!isRequestDecision(intent)) return data({ error: translator(lang)("tickets.errors.unknown_decision") }, { status: 400 });
  const outcome = await decideOperationRequest(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    actor: auth.user,
    requestId: Number(params.requestId),
    decision: intent,
    addresses: platformAddresses(request),
  });
  if (!outcome.ok && statusOf(outcome) === 404) notFound();
  if (!outcome.ok) return data({ error: messageOf(outcome, lang) }, { status: statusOf(outcome) });
  return { done: messageOf(outcome, lang) };
}

export default function OperationRequestDetails() {
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
              <Table.Th w={200}>{t("tickets.columns.order")}</Table.Th>
              <Table.Td>
                <Anchor component={Link} to={`/${details.lang}/transactions/${details.transactionId}`}>
                  #{details.orderNo}
                </Anchor>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th w={200}>{t("tickets.columns.state")}</Table.Th>
              <Table.Td>
                <RequestStateBadge state={details.state} />
              </Table.Td>
            </Table.Tr>
            {details.rows.map(([label, value, translate]) => (
              <Table.Tr key={label}>
                <Table.Th w={200}>{t(label)}</Table.Th>
                <Table.Td style={{ overflowWrap: "anywhere" }}>
                  {translate ? t(value) : label === "tickets.columns.amount" ? <span dir="ltr">{value}</span> : value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <DecisionButtons decisions={details.decisions} />
      <Anchor component={Link} to={`/${details.lang}/ticket/approve-refund-void`}>
        {t("tickets.back")}
      </Anchor>
    </Stack>
  );
}
