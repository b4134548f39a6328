import { Anchor, Button, Card, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/operations-request";
import { messageOf, statusOf } from "~/web/outcomes.server";
import { resultMessage } from "../presentation.server";
import { makerName } from "~/presentation/payment-returns.server";
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

const MONEY_ROWS = new Set(["tickets.columns.amount", "tickets.columns.paid", "tickets.columns.refunded"]);

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
  const decisions = operationRequestDecisions(row, auth.user);
  const customerName = [row.customer_first_name, row.customer_last_name].filter(Boolean).join(" ");
  const contact = row.customer_email ?? row.customer_phone;
  const customer = customerName && contact ? `${customerName} (${contact})` : customerName || contact || null;
  const amount = formatAmount(row.amount, row.currency_code, lang);
  return {
    lang,
    id: row.id,
    state: row.state,
    kind: row.kind,
    transactionId: row.transaction_id,
    orderNo: row.order_no,
    decisions,
    /** The approval's second step: what Approve will do, asked before money moves. */
    confirming: new URL(request.url).searchParams.get("confirm") === "approve" && decisions.includes("approve"),
    summary: {
      amount,
      customer,
      paid: formatAmount(row.paid_amount, row.currency_code, lang),
      refunded: formatAmount(row.refunded_amount, row.currency_code, lang),
      reason: row.note,
    },
    rows: [
      ["tickets.columns.type", `tickets.types.${row.kind}`, true],
      ["tickets.columns.amount", amount],
      ["tickets.columns.paid", formatAmount(row.paid_amount, row.currency_code, lang)],
      ["tickets.columns.refunded", formatAmount(row.refunded_amount, row.currency_code, lang)],
      ["tickets.columns.reason", row.note ?? "—"],
      ["tickets.columns.customer", customer ?? "—"],
      ["tickets.columns.gateway", (lang === "ar" ? row.gateway_name_ar : row.gateway_name_en) ?? row.gateway_code],
      ["tickets.columns.maker", makerName(row.maker_name, lang)],
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
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (!isRequestDecision(intent))
    return data({ error: translator(lang)("tickets.errors.unknown_decision") }, { status: 400 });
  // Money moves only once the checker has seen what it is and said yes (the confirmation step).
  if (intent === "approve" && form.get("confirmed") !== "yes") {
    const row = await findOperationRequest(
      getDbFrom(context),
      auth.user.merchantId,
      auth.user,
      Number(params.requestId),
    );
    if (row && operationRequestDecisions(row, auth.user).includes("approve"))
      throw redirect(`/${lang}/ticket/approve-refund-void/${row.id}?confirm=approve`);
  }
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
  const navigation = useNavigation();
  const back = `/${details.lang}/ticket/approve-refund-void/${details.id}`;
  return (
    <Stack>
      <PageHeader title={t("tickets.details_title", { id: details.id })}>
        <RequestStateBadge state={details.state} />
      </PageHeader>
      <DecisionOutcome result={result} />
      {details.confirming && !result ? (
        <Paper
          withBorder
          shadow="sm"
          p="lg"
          role="region"
          aria-labelledby="approve-title"
          style={{ borderColor: "var(--mantine-color-orange-5)", borderWidth: 2 }}
        >
          <Stack gap="sm">
            <Title order={2} fz="h4" id="approve-title">
              {t(`tickets.confirm.title.${details.kind}`, { amount: details.summary.amount, orderNo: details.orderNo })}
            </Title>
            <Table variant="vertical" layout="fixed" withTableBorder>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={200}>{t(`operations.confirm.amount.${details.kind}`)}</Table.Th>
                  <Table.Td fw={700}>
                    <span dir="ltr">{details.summary.amount}</span>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t("operations.confirm.customer")}</Table.Th>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    {details.summary.customer ?? t("operations.confirm.no_customer")}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t("operations.confirm.paid")}</Table.Th>
                  <Table.Td>
                    <span dir="ltr">{details.summary.paid}</span>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t("operations.confirm.refunded")}</Table.Th>
                  <Table.Td>
                    <span dir="ltr">{details.summary.refunded}</span>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t("tickets.columns.reason")}</Table.Th>
                  <Table.Td style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                    {details.summary.reason ?? t("tickets.confirm.no_reason")}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            <Text fw={600}>{t("tickets.confirm.question")}</Text>
            <Form method="post">
              <input type="hidden" name="confirmed" value="yes" />
              <Group>
                <Button
                  type="submit"
                  name="intent"
                  value="approve"
                  color="green"
                  loading={navigation.state === "submitting"}
                >
                  {t("tickets.confirm.yes")}
                </Button>
                <Anchor component={Link} to={back}>
                  {t("transactions.confirm.no")}
                </Anchor>
              </Group>
            </Form>
          </Stack>
        </Paper>
      ) : null}
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
                  {translate ? t(value) : MONEY_ROWS.has(label) ? <span dir="ltr">{value}</span> : value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      {details.confirming && !result ? null : <DecisionButtons decisions={details.decisions} confirmApprove />}
      <Anchor component={Link} to={`/${details.lang}/ticket/approve-refund-void`}>
        {t("tickets.back")}
      </Anchor>
    </Stack>
  );
}
