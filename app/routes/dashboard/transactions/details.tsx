import { Alert, Anchor, Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Form, Link, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/details";
import { PageHeader } from "~/components/page-header";
import { StateBadge } from "~/components/state-badge";
import { DoneDialog, OperationDialog } from "~/components/transactions/dialog-slots";
import { withParams } from "~/domain/transactions/filters";
import { detailsAction, loadDetails } from "./details.server";
import { AttachmentCard, AuditTrail, DuplicatePaymentsCard, OperationsCard, ShareCard } from "./details/cards";
import { PaymentReturns } from "~/components/payment-returns";

export const loader = (args: Route.LoaderArgs) => loadDetails(args);
export const action = (args: Route.ActionArgs) => detailsAction(args);

/** Rows whose value reads left to right in Arabic too (amounts are written out by the server already). */
const LTR_ROWS = new Set([
  "fields.customer_phone",
  "fields.id",
  "fields.amount",
  "fields.paid_amount",
  "fields.fee",
  "details.paid_attempt_fee",
  "details.captured_amount",
  "fields.refunded_amount",
  "fields.customer_email",
  "fields.ref_number",
  "fields.auth_code",
]);

/** A red action that asks first (cancel, delete): a disclosure with the question and a Yes that posts; no JavaScript needed. */
function ConfirmMenu({
  label,
  question,
  yes,
  command,
}: {
  label: string;
  question: string;
  yes: string;
  command: string;
}) {
  return (
    <details className="disclosure-menu">
      <summary>
        <Text component="span" c="red" fw={600}>
          {label}
        </Text>
      </summary>
      <Paper withBorder shadow="md" p="sm" className="disclosure-menu__panel">
        <Text size="sm" mb="xs">
          {question}
        </Text>
        <Form method="post">
          <Button type="submit" name="row_command" value={command} color="red" size="xs">
            {yes}
          </Button>
        </Form>
      </Paper>
    </details>
  );
}

type Result = Partial<{
  color: "green" | "orange" | "red";
  message: string;
  attachmentError: string;
  attachmentDone: string;
}>;

export default function TransactionDetails() {
  const { t } = useTranslation();
  const details = useLoaderData<typeof loader>();
  const result = (useActionData<typeof action>() ?? {}) as Result;
  const location = useLocation();
  const messageActions = details.actions.filter(
    (action) => !["refund", "capture", "void", "cancel", "delete"].includes(action.value),
  );
  const operations = details.actions.filter((action) => ["refund", "capture", "void"].includes(action.value));
  const canCancel = details.actions.some((action) => action.value === "cancel");
  const canDelete = details.actions.some((action) => action.value === "delete");
  return (
    <Stack>
      <PageHeader title={t("details.title", { orderNo: details.orderNo })}>
        <Group gap="sm">
          <StateBadge state={details.state} />
          {details.deleted ? <Badge color="gray">{t("details.deleted")}</Badge> : null}
          {details.paidLate ? <Badge color="orange">{t(`details.paid_late.${details.paidLate}`)}</Badge> : null}
          <Anchor component={Link} to={details.place.basePath}>
            {t("details.back")}
          </Anchor>
        </Group>
      </PageHeader>
      {result.message ? (
        <Alert color={result.color ?? "green"} role={result.color === "red" ? "alert" : "status"}>
          {result.message}
        </Alert>
      ) : null}
      {details.pendingRequests.map((request) => (
        <Alert key={request.id} color="orange" variant="light" role="status">
          {request.text}{" "}
          <Anchor component={Link} to={request.url}>
            {t("tickets.open_request", { id: request.id })}
          </Anchor>
        </Alert>
      ))}
      {details.actions.length ? (
        <Group gap="sm">
          {operations.map((action) => (
            <Button
              key={action.value}
              component={Link}
              to={`${location.pathname}${withParams(location.search, { operation: action.value, done: null })}`}
              variant="light"
            >
              {action.display_name}
            </Button>
          ))}
          {messageActions.length ? (
            <Form method="post">
              <Group gap="sm">
                {messageActions.map((action) => (
                  <Button
                    type="submit"
                    name="row_command"
                    value={`${action.value}:${details.id}`}
                    key={action.value}
                    variant="default"
                  >
                    {action.display_name}
                  </Button>
                ))}
              </Group>
            </Form>
          ) : null}
          {canCancel ? (
            <ConfirmMenu
              label={t("payment_request.cancel_request")}
              question={t("payment_request.cancel_confirm")}
              yes={t("payment_request.cancel_yes")}
              command={`cancel:${details.id}`}
            />
          ) : null}
          {canDelete ? (
            <ConfirmMenu
              label={t("actions.delete")}
              question={t("transactions.confirm.delete")}
              yes={t("details.delete_yes")}
              command={`delete:${details.id}`}
            />
          ) : null}
        </Group>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <div style={{ gridColumn: details.qrSvg ? "span 2" : "span 3" }}>
          <ShareCard details={details} />
        </div>
        {details.qrSvg ? (
          <Card withBorder padding="md">
            <Stack align="center" gap="xs">
              <Title order={2} fz="h5">
                {t("payment_request.qr_code")}
              </Title>
              <span
                className="qr-frame"
                data-settled={details.settled}
                style={details.settled ? undefined : { borderColor: "var(--mantine-color-gray-3)" }}
              >
                <img
                  src={`data:image/svg+xml;utf8,${encodeURIComponent(details.qrSvg)}`}
                  width={160}
                  height={160}
                  alt={t("payment_request.qr_alt", { state: t(`states.${details.state}`) })}
                />
              </span>
            </Stack>
          </Card>
        ) : null}
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Table variant="vertical" layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={200}>{t("fields.state")}</Table.Th>
              <Table.Td>
                <StateBadge state={details.state} />
              </Table.Td>
            </Table.Tr>
            {details.rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={200}>{t(label)}</Table.Th>
                <Table.Td style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                  <span dir={LTR_ROWS.has(label) ? "ltr" : "auto"}>{value}</span>
                </Table.Td>
              </Table.Tr>
            ))}
            {details.sectionRows.map((row) => (
              <Table.Tr key={`section-${row.name}`}>
                <Table.Th w={200}>{row.label}</Table.Th>
                <Table.Td style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{row.value}</Table.Td>
              </Table.Tr>
            ))}
            {details.mapUrl ? (
              <Table.Tr>
                <Table.Th w={200}>{t("details.delivery_location")}</Table.Th>
                <Table.Td>
                  <Anchor href={details.mapUrl} target="_blank" rel="noopener noreferrer">
                    {t("delivery.view_on_map")}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {details.extra.map(([key, value]) => (
              <Table.Tr key={`extra-${key}`}>
                <Table.Th w={200}>{key}</Table.Th>
                <Table.Td style={{ overflowWrap: "anywhere" }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      {details.remarks.length ? (
        <Card withBorder padding="lg">
          <Title order={2} fz="h5" mb="sm">
            {t("details.remarks")}
          </Title>
          <Table variant="vertical" layout="fixed">
            <Table.Tbody>
              {details.remarks.map(([label, value], index) => (
                <Table.Tr key={index}>
                  <Table.Th w={180}>{label}</Table.Th>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ) : null}
      <PaymentReturns returns={details.paymentReturns} />
      <DuplicatePaymentsCard details={details} />
      <AttachmentCard details={details} result={result} />
      <OperationsCard details={details} />
      <AuditTrail details={details} />
      {details.dialog ? <OperationDialog dialog={details.dialog} result={result} /> : null}
      {details.done ? <DoneDialog done={details.done} /> : null}
    </Stack>
  );
}
