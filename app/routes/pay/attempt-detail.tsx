import "~/styles/mantine-customer";
import "~/styles/pay.css";
import { Button, Card, Stack, Table, Text, Title } from "@mantine/core";
import { IconCircleCheck, IconCircleX, IconClockHour4, IconDownload } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/attempt-detail";
import { PublicHeader } from "~/components/pay/public-header";
import { findAttempt, settleByInquiry } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import { findPublicTransaction, isExpired } from "~/domain/payments/pay-page.server";
import { resultRows } from "~/domain/payments/result-rows.server";
import { loadUnitHeader } from "~/domain/payments/units.server";
import { platformAddresses } from "~/lib/addresses.server";
import { isLocalPath } from "~/lib/guards.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/lib/request-context.server";

/** Served as plain HTML: no React on the client (see docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.lang === "ar" ? "نتيجة الدفع" : "Payment result" }, { name: "robots", content: "noindex" }];
}

/** Only paths on this site, or the merchant's own next_url, may be followed after a payment. */
function safeNext(value: string | null, merchantNext: string | null) {
  if (!value) return null;
  if (merchantNext && value === merchantNext) return value;
  return isLocalPath(value) ? value : null;
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  let attempt = await findAttempt(db, params.attemptId);
  const transaction = attempt ? await findPublicTransaction(db, attempt.transaction_id) : undefined;
  if (!attempt || !transaction) return data({ found: false as const, lang }, { status: 404 });
  // A result still open is asked of the gateway again, from this server, each time the page loads.
  if (attempt.state === "pending") attempt = await settleByInquiry(db, attempt, platformAddresses(request));
  const [unit, gateway] = await Promise.all([
    loadUnitHeader(db, transaction, lang),
    findMerchantGateway(db, attempt.merchant_id, attempt.gateway_code),
  ]);
  const failedOrOpen = attempt.state !== "success" && attempt.state !== "cod";
  return {
    found: true as const,
    lang,
    unit,
    state: attempt.state,
    expired: failedOrOpen && (transaction.state === "expired" || isExpired(transaction)),
    rows: resultRows(attempt, transaction.order_no, gateway, lang),
    description: transaction.description,
    receiptUrl: failedOrOpen ? null : `/${lang}/pay/attempt-detail/${attempt.id}/receipt.pdf`,
    attachment: transaction.attachment_name ? { name: transaction.attachment_name, url: `/${lang}/pay/${transaction.id}/attachment` } : null,
    tryAgainUrl: `/${lang}/pay/${transaction.id}`,
    next: safeNext(new URL(request.url).searchParams.get("next"), transaction.next_url),
  };
}

export default function AttemptDetail() {
  const { t } = useTranslation();
  const result = useLoaderData<typeof loader>();
  if (!result.found) {
    return (
      <Stack component="main" maw={560} mx="auto" p="md">
        <Card withBorder padding="xl" ta="center">
          <Title order={1} fz="h3">{t("result.not_found")}</Title>
        </Card>
      </Stack>
    );
  }
  const success = result.state === "success" || result.state === "cod";
  const pending = result.state === "pending";
  const Icon = success ? IconCircleCheck : pending ? IconClockHour4 : IconCircleX;
  const color = success ? "green" : pending ? "orange" : "red";
  return (
    <div className="pay-page">
      {result.next ? <meta httpEquiv="refresh" content={`3;url=${result.next}`} /> : null}
      {result.unit ? <PublicHeader unit={result.unit} lang={result.lang} /> : null}
      <Stack component="main" maw={560} mx="auto" p="md" gap="md">
        <Card withBorder padding="xl">
          <Stack align="center" ta="center" gap="xs">
            <Icon size={56} color={`var(--mantine-color-${color}-6)`} aria-hidden />
            <Title order={1} fz="h3">
              {success
                ? t(result.state === "cod" ? "result.cod_title" : "result.success_title")
                : pending
                  ? t("result.pending_title")
                  : result.expired
                    ? t("result.expired_message")
                    : t("result.failed_title")}
            </Title>
            {pending ? <Text c="dimmed">{t("result.pending_message")}</Text> : null}
            {!success && !pending && !result.expired ? (
              <Text c="dimmed">{t(result.state === "canceled" ? "result.canceled_message" : "result.failed_message")}</Text>
            ) : null}
            {pending ? <Button component="a" href="" variant="default">{t("result.refresh")}</Button> : null}
            {!success && !pending && !result.expired ? <Button component="a" href={result.tryAgainUrl}>{t("result.try_again")}</Button> : null}
            {result.receiptUrl ? (
              <Button component="a" variant="light" href={result.receiptUrl} download leftSection={<IconDownload size={18} aria-hidden />}>
                {t("result.download_receipt")}
              </Button>
            ) : null}
            {result.next ? <Text size="sm" c="dimmed">{t("result.redirecting")}</Text> : null}
            {result.attachment ? (
              <Button component="a" variant="subtle" href={result.attachment.url} download={result.attachment.name}>
                {t("payment_request.download_attachment")}
              </Button>
            ) : null}
          </Stack>
        </Card>
        {result.expired ? null : (
          <details className="result-details" open={success}>
            <summary>
              <Text component="span" fw={700}>{t("result.details")}</Text>
            </summary>
            <Table variant="vertical" mt="sm">
              <Table.Tbody>
                {result.rows.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w="45%">{t(label)}</Table.Th>
                    <Table.Td>{label === "result.status" ? t(value) : value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </details>
        )}
        {success && result.description ? (
          <Card withBorder padding="lg">
            <Title order={2} fz="h4" mb="xs">{t("pay.order_description")}</Title>
            <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{result.description}</Text>
          </Card>
        ) : null}
      </Stack>
    </div>
  );
}
