import { Alert, Anchor, Button, Card, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import QRCode from "qrcode";
import { useTranslation } from "react-i18next";
import { data, Form, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/payment-request.details";
import { CopyField } from "~/components/copy-field";
import { PageHeader } from "~/components/page-header";
import { StateBadge } from "~/components/state-badge";
import { loadMerchantBranding } from "~/domain/identity/users.server";
import { availableActions, runAction } from "~/domain/payments/actions.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { findMerchantTransaction } from "~/domain/payments/transactions.server";
import { payUrlOf } from "~/domain/payments/payment-requests.server";
import { formatDateTime } from "~/lib/format";
import { notFound, requirePermission, requireSection, requireUser } from "~/lib/guards.server";
import { isLanguage } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { getDbFrom } from "~/lib/request-context.server";
import { linkBaseUrl } from "~/lib/sign-in.server";

const SETTLED = new Set(["cod", "paid", "authorized"]);

/** The customer's delivery address on one line, as typed; "—" until they give it. */
function deliverySummary(json: string | null) {
  if (!json) return "—";
  const address = JSON.parse(json) as Record<string, string | undefined>;
  return [
    address.address === "Custom" ? address.custom_address : address.address,
    address.area,
    address.block && `Block ${address.block}`,
    address.street && `Street ${address.street}`,
    address.avenue && `Avenue ${address.avenue}`,
    address.house_no && `House ${address.house_no}`,
    address.floor && `Floor ${address.floor}`,
    address.office_no && `Office ${address.office_no}`,
    address.paci_no && `PACI ${address.paci_no}`,
    address.special_instructions,
  ]
    .filter(Boolean)
    .join(", ");
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "payment_request", "transactions");
  requirePermission(auth, "view_paymenttransaction");
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const transaction = await findMerchantTransaction(db, auth.user.merchantId, params.transactionId, "payment_request");
  if (!transaction) notFound();
  const payUrl = payUrlOf(linkBaseUrl(), lang, transaction.id);
  const merchant = await loadMerchantBranding(db, auth.user.merchantId);
  const amount = formatAmount(transaction.amount, transaction.currency_code, lang);
  const gateways = await listMerchantGateways(db, auth.user.merchantId);
  const gatewayName = (code: string) => {
    const gateway = gateways.find((candidate) => candidate.code === code);
    return gateway ? (lang === "ar" ? gateway.name_ar : gateway.name_en) : code;
  };
  return {
    actions: availableActions(transaction, auth.user),
    orderNo: transaction.order_no,
    state: transaction.state,
    settled: SETTLED.has(transaction.state),
    payUrl,
    qrSvg: await QRCode.toString(payUrl, { type: "svg", margin: 1, width: 220, errorCorrectionLevel: "M" }),
    shareText: `${merchant[lang === "ar" ? "title_ar" : "title_en"]}: ${amount} — ${payUrl}`,
    receiptUrl:
      transaction.paid_attempt_id && (transaction.state === "paid" || transaction.state === "cod" || transaction.state === "authorized")
        ? `/${lang}/pay/attempt-detail/${transaction.paid_attempt_id}/receipt.pdf`
        : null,
    mapUrl: transaction.delivery_lat !== null && transaction.delivery_lng !== null ? `https://www.google.com/maps?q=${transaction.delivery_lat},${transaction.delivery_lng}` : null,
    attachment: transaction.attachment_name ? { name: transaction.attachment_name, url: `/${lang}/pay/${transaction.id}/attachment` } : null,
    customerEmail: transaction.customer_email,
    customerPhone: transaction.customer_phone,
    rows: [
      ["payment_request.amount", amount],
      ["payment_request.customer", [transaction.customer_first_name, transaction.customer_last_name].filter(Boolean).join(" ") || "—"],
      ["payment_request.customer_email", transaction.customer_email ?? "—"],
      ["payment_request.customer_phone", transaction.customer_phone ?? "—"],
      ["payment_request.description", transaction.description ?? "—"],
      ["payment_request.created_at", formatDateTime(transaction.created_at, lang)],
      ["payment_request.expires_at", transaction.expiration_time ? formatDateTime(transaction.expiration_time, lang) : null],
      ["payment_request.gateways", transaction.pg_codes.split(",").map(gatewayName).join(", ")],
      ["payment_request.paid_amount", transaction.paid_amount ? formatAmount(transaction.paid_amount, transaction.currency_code, lang) : "—"],
      ["payment_request.paid_with", transaction.gateway_code ? gatewayName(transaction.gateway_code) : "—"],
      ["payment_request.initiator", transaction.initiator ?? "—"],
      ...(transaction.delivery_mode === "none" ? [] : [["payment_request.delivery", deliverySummary(transaction.delivery_address)] as [string, string]]),
    ] as [string, string | null][],
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  await requireSection(context, auth, "payment_request", "transactions");
  const form = await request.formData();
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const outcome = await runAction(getDbFrom(context), {
    merchantId: auth.user.merchantId,
    user: auth.user,
    transactionId: params.transactionId,
    action: String(form.get("intent") ?? ""),
    baseUrl: linkBaseUrl(),
    lang,
  });
  if (!outcome.ok && outcome.status === 404) notFound();
  if (!outcome.ok) return data({ error: outcome.message }, { status: outcome.status });
  return { done: outcome.message };
}

export default function PaymentRequestDetails() {
  const { t } = useTranslation();
  const details = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const text = encodeURIComponent(details.shareText);
  return (
    <Stack>
      <PageHeader title={t("payment_request.details_title", { orderNo: details.orderNo })}>
        <StateBadge state={details.state} />
      </PageHeader>
      {result && "done" in result ? <Alert color="green" role="status">{result.done}</Alert> : null}
      {result && "error" in result ? <Alert color="red" role="alert">{result.error}</Alert> : null}
      {details.actions.length ? (
        <Group gap="sm">
          {details.actions.filter((name) => name !== "cancel").map((name) => (
            <Form method="post" key={name}>
              <Button type="submit" name="intent" value={name} variant="default">
                {t(`actions.${name}`)}
              </Button>
            </Form>
          ))}
          {details.actions.includes("cancel") ? (
            <details className="disclosure-menu">
              <summary>
                <Text component="span" c="red" fw={600}>{t("payment_request.cancel_request")}</Text>
              </summary>
              <Paper withBorder shadow="md" p="sm" className="disclosure-menu__panel">
                <Text size="sm" mb="xs">{t("payment_request.cancel_confirm")}</Text>
                <Form method="post">
                  <Button type="submit" name="intent" value="cancel" color="red" size="xs">
                    {t("payment_request.cancel_yes")}
                  </Button>
                </Form>
              </Paper>
            </details>
          ) : null}
        </Group>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Card withBorder padding="lg" style={{ gridColumn: "span 2" }}>
          <Table variant="vertical" layout="fixed">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>{t("payment_request.state")}</Table.Th>
                <Table.Td><StateBadge state={details.state} /></Table.Td>
              </Table.Tr>
              {details.rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={180}>{t(label)}</Table.Th>
                  <Table.Td style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} dir={label === "payment_request.customer_phone" ? "ltr" : undefined}>
                    {value ?? t("payment_request.never")}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder padding="lg">
          <Stack align="center" gap="xs">
            <Title order={2} fz="h5">{t("payment_request.qr_code")}</Title>
            <span className="qr-frame" data-settled={details.settled}>
              <img
                src={`data:image/svg+xml;utf8,${encodeURIComponent(details.qrSvg)}`}
                width={220}
                height={220}
                alt={t("payment_request.qr_alt", { state: t(`states.${details.state}`) })}
              />
            </span>
          </Stack>
        </Card>
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <CopyField label={t("payment_request.payment_url")} value={details.payUrl} />
          <Text fw={600} size="sm">{t("payment_request.share")}</Text>
          <Group gap="sm">
            <Button component="a" variant="default" href={`https://wa.me/?text=${text}`} target="_blank" rel="noopener noreferrer">
              {t("payment_request.share_whatsapp")}
            </Button>
            <Button component="a" variant="default" href={`mailto:${details.customerEmail ?? ""}?body=${text}`}>
              {t("payment_request.share_email")}
            </Button>
            <Button component="a" variant="default" href={`sms:${details.customerPhone ?? ""}?&body=${text}`}>
              {t("payment_request.share_sms")}
            </Button>
            <Anchor href={details.payUrl} target="_blank" rel="noopener">
              {t("payment_request.open_link")}
            </Anchor>
            {details.receiptUrl ? (
              <Anchor href={details.receiptUrl} download>
                {t("result.download_receipt")}
              </Anchor>
            ) : null}
            {details.mapUrl ? (
              <Anchor href={details.mapUrl} target="_blank" rel="noopener noreferrer">
                {t("delivery.view_on_map")}
              </Anchor>
            ) : null}
            {details.attachment ? (
              <Anchor href={details.attachment.url} download={details.attachment.name}>
                {t("payment_request.download_attachment")}: {details.attachment.name}
              </Anchor>
            ) : null}
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
