import { Alert, Anchor, Badge, Button, Card, Group, Input, Stack, Table, Text, Title } from "@mantine/core";
import "~/components/forms.css";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { withParams } from "~/domain/transactions/filters";
import { CopyField } from "~/components/copy-field";
import type { loadDetails } from "../details.server";

type Details = Awaited<ReturnType<typeof loadDetails>>;

/** The attachment: download it, or, for those who may change the transaction, replace or remove it. */
export function AttachmentCard({
  details,
  result,
}: {
  details: Details;
  result: { attachmentError?: string; attachmentDone?: string };
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} fz="h5">
          {t("details.attachment")}
        </Title>
        {details.attachment ? (
          <Anchor href={details.attachment.url} download={details.attachment.name}>
            {t("payment_request.download_attachment")}: {details.attachment.name}
          </Anchor>
        ) : (
          <Text c="dimmed" size="sm">
            {t("details.no_attachment")}
          </Text>
        )}
        {result.attachmentDone ? (
          <Alert color="green" role="status">
            {result.attachmentDone}
          </Alert>
        ) : null}
        {details.canChange ? (
          <Group align="flex-end" gap="sm">
            <Form method="post" encType="multipart/form-data">
              <input type="hidden" name="intent" value="attachment_upload" />
              <Group align="flex-end" gap="sm">
                <Stack gap={4}>
                  <Text component="label" htmlFor="attachment-file" size="sm" fw={500}>
                    {t("details.upload")}
                  </Text>
                  <Input
                    component="input"
                    id="attachment-file"
                    type="file"
                    name="attachment"
                    accept="application/pdf,image/png,image/jpeg,image/webp"
                    classNames={{ input: "file-field" }}
                    error={Boolean(result.attachmentError)}
                    aria-invalid={result.attachmentError ? true : undefined}
                    aria-describedby={result.attachmentError ? "attachment-error" : undefined}
                  />
                  {result.attachmentError ? (
                    <Text id="attachment-error" size="sm" c="red">
                      {result.attachmentError}
                    </Text>
                  ) : null}
                </Stack>
                <Button type="submit" variant="default">
                  {t("details.upload_button")}
                </Button>
              </Group>
            </Form>
            {details.attachment ? (
              <Form method="post">
                <input type="hidden" name="intent" value="attachment_clear" />
                <Button type="submit" variant="subtle" color="red">
                  {t("details.clear")}
                </Button>
              </Form>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * Money the customer paid more than once (two tabs, a second method): each extra captured payment,
 * what it still has to give back, and the action that gives it back.
 */
export function DuplicatePaymentsCard({ details }: { details: Details }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (details.duplicates.length === 0) return null;
  return (
    <Card withBorder padding="lg" style={{ borderColor: "var(--mantine-color-orange-5)" }}>
      <Stack gap="sm">
        <Title order={2} fz="h5">
          {t("details.duplicates.title")}
        </Title>
        <Text size="sm">{t("details.duplicates.explain")}</Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("fields.amount")}</Table.Th>
              <Table.Th>{t("fields.gateway_name")}</Table.Th>
              <Table.Th>{t("details.duplicates.paid_at")}</Table.Th>
              <Table.Th>{t("details.duplicates.reference")}</Table.Th>
              <Table.Th>{t("details.duplicates.to_give_back")}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {details.duplicates.map((duplicate) => (
              <Table.Tr key={duplicate.id}>
                <Table.Td dir="ltr">{duplicate.amount}</Table.Td>
                <Table.Td>{duplicate.gateway}</Table.Td>
                <Table.Td>{duplicate.paidAt}</Table.Td>
                <Table.Td dir="ltr">{duplicate.reference}</Table.Td>
                <Table.Td dir="ltr">{duplicate.available}</Table.Td>
                <Table.Td>
                  {duplicate.canGiveBack ? (
                    <Button
                      component={Link}
                      size="xs"
                      color="orange"
                      to={`${location.pathname}${withParams(location.search, { operation: duplicate.kind, attempt: duplicate.id, done: null })}`}
                    >
                      {t(`details.duplicates.action.${duplicate.kind}`)}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}

/** The refunds, captures and voids of the transaction. */
export function OperationsCard({ details }: { details: Details }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h5" mb="sm">
        {t("details.children")}
      </Title>
      {details.children.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t("details.no_children")}
        </Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("details.operation")}</Table.Th>
              <Table.Th>{t("fields.amount")}</Table.Th>
              <Table.Th>{t("fields.state")}</Table.Th>
              <Table.Th>{t("fields.created")}</Table.Th>
              <Table.Th>{t("details.by")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {details.children.map((child) => (
              <Table.Tr key={child.id}>
                <Table.Td>
                  {t(`operations.kind.${child.kind}`)}
                  {child.duplicate ? (
                    <Text size="xs" c="dimmed">
                      {t("details.duplicates.of_duplicate")}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td dir="ltr">{child.amount}</Table.Td>
                <Table.Td>
                  <Badge
                    size="sm"
                    variant="light"
                    color={
                      child.state === "succeeded"
                        ? "green"
                        : child.state === "failed" || child.state === "attention"
                          ? "red"
                          : "orange"
                    }
                  >
                    {t(`operations.state.${child.state}`)}
                  </Badge>
                  {child.message ? (
                    <Text size="xs" c="red">
                      {child.message}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{child.created}</Table.Td>
                <Table.Td>{child.by}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** The payment link to copy or share (first on the page: it is what a merchant comes for), and the receipt once paid. */
export function ShareCard({ details }: { details: Details }) {
  const { t } = useTranslation();
  const text = encodeURIComponent(details.shareText);
  return (
    <Card withBorder padding="lg" h="100%">
      <Stack gap="xs">
        <Group gap="sm" align="baseline">
          <Text fw={700} fz="xl" dir="ltr">
            {details.headline.amount}
          </Text>
          {details.headline.customer ? (
            <Text c="dimmed" dir="auto">
              {details.headline.customer}
            </Text>
          ) : null}
        </Group>
        <CopyField label={t("payment_request.payment_url")} value={details.payUrl} />
        <Group gap="sm" align="center">
          <Text fw={600} size="sm">
            {t("payment_request.share")}
          </Text>
          <Button
            component="a"
            variant="default"
            size="sm"
            href={`https://wa.me/${details.whatsappNumber ?? ""}?text=${text}`}
            target="_blank"
            rel="noopener noreferrer"
            title={
              details.whatsappNumber
                ? t("payment_request.share_whatsapp_to", { phone: details.customerPhone })
                : undefined
            }
          >
            {t("payment_request.share_whatsapp")}
          </Button>
          <Button component="a" variant="default" size="sm" href={`mailto:${details.customerEmail ?? ""}?body=${text}`}>
            {t("payment_request.share_email")}
          </Button>
          <Button component="a" variant="default" size="sm" href={`sms:${details.customerPhone ?? ""}?&body=${text}`}>
            {t("payment_request.share_sms")}
          </Button>
          <Anchor href={details.payUrl} target="_blank" rel="noopener" size="sm">
            {t("payment_request.open_link")}
          </Anchor>
          {details.receiptUrl ? (
            <Anchor href={details.receiptUrl} download size="sm">
              {t("result.download_receipt")}
            </Anchor>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}

/** Who did what to the transaction, newest first, in the reader's language. */
export function AuditTrail({ details }: { details: Details }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h5" mb="sm">
        {t("details.audit_trail")}
      </Title>
      {details.trail.length === 0 ? (
        <Text c="dimmed" size="sm">
          —
        </Text>
      ) : (
        <Stack gap={6} component="ol" className="audit-trail">
          {details.trail.map((entry) => (
            <Text component="li" key={entry.id} size="sm">
              <Text component="span" c="dimmed">
                {entry.at}
              </Text>{" "}
              · <strong>{entry.actor}</strong> — {entry.description}
            </Text>
          ))}
        </Stack>
      )}
    </Card>
  );
}
