import "~/styles/mantine-customer";
import "~/styles/pay.css";
import { Alert, Anchor, Card, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/pay";
import { useNonce } from "~/components/nonce";
import { AmountForm } from "~/components/pay/amount-form";
import { DeliverySteps } from "~/components/pay/delivery-steps";
import { descriptionItems, OrderDescription } from "~/components/pay/order-description";
import { PAY_ENHANCER } from "~/components/pay/pay-enhancer";
import { PayChoices } from "~/components/pay/pay-choices";
import { PayStatus } from "~/components/pay/pay-status";
import { PublicHeader } from "~/components/pay/public-header";
import { Remarks, remarkRows } from "~/components/pay/remarks";
import { Terms } from "~/components/pay/terms";
import { startAttempt } from "~/domain/payments/attempts.server";
import { DEFAULT_MAP_CENTER } from "~/domain/payments/delivery-schema";
import { deliveryStateOf, deliveryStepFor } from "~/domain/payments/delivery.server";
import { KUWAIT_AREAS_AR, KUWAIT_AREAS_EN } from "~/domain/payments/kuwait-areas";
import { deliveryAction } from "./delivery-action.server";
import { chosenAmount, defaultChoice, loadPayPage, payChoicesFor } from "~/domain/payments/pay-page.server";
import { loadUnitHeader } from "~/domain/payments/units.server";
import { platformAddresses } from "~/lib/addresses.server";
import { env } from "~/lib/env.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { randomToken } from "~/lib/crypto.server";
import { getDbFrom } from "~/lib/request-context.server";

/** Served as plain HTML: no React on the client (see docs/decisions/0005). */
export const handle = { hydrate: false };

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.unit?.title ?? "Pay" }, { name: "robots", content: "noindex" }];
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const page = await loadPayPage(db, params.transactionId);
  if (page.status === "not_found") return data({ status: page.status, lang, unit: null, view: null, settledLink: null }, { status: 404 });
  const { transaction } = page;
  const unit = await loadUnitHeader(db, transaction, lang);
  const statusCode = page.status === "paused" ? 423 : 200;
  // A link that cannot be paid any more sends the customer on to the merchant's next_url, if any.
  if (page.status !== "payable" && page.status !== "paused" && transaction.next_url) return redirect(transaction.next_url);
  if (page.status !== "payable") {
    const settledLink = page.status === "settled" && transaction.paid_attempt_id ? `/${lang}/pay/attempt-detail/${transaction.paid_attempt_id}` : null;
    return data({ status: page.status, lang, unit, view: null, settledLink }, { status: statusCode });
  }
  const url = new URL(request.url);
  const delivery = await deliveryStateOf(db, transaction.id);
  const step = deliveryStepFor(delivery, url.searchParams.get("step"));
  const typed = url.searchParams.get("amount")?.slice(0, 20) ?? "";
  const chosen = chosenAmount(transaction, typed);
  const amount = chosen.ok ? chosen.amount : transaction.amount;
  const choices = await payChoicesFor(db, transaction, amount, lang);
  const requested = choices.find((choice) => choice.gateway_code === url.searchParams.get("gateway"));
  const selected = requested ?? defaultChoice(choices);
  const money = (minor: number) => formatAmount(minor, transaction.currency_code, lang);
  return {
    status: page.status,
    lang,
    unit,
    settledLink: null,
    view: {
      id: transaction.id,
      orderNo: transaction.order_no,
      delivery:
        step && delivery.mode !== "none"
          ? {
              step,
              mode: delivery.mode,
              address: delivery.address,
              location: delivery.location,
              defaultCenter: DEFAULT_MAP_CENTER,
              areas: lang === "ar" ? [...KUWAIT_AREAS_AR] : [...KUWAIT_AREAS_EN],
              prefilled: step === "address" && Boolean(delivery.address),
              mapStyleUrl: env().MAP_STYLE_URL ?? null,
            }
          : null,
      customerName: [transaction.customer_first_name, transaction.customer_last_name].filter(Boolean).join(" "),
      customerEmail: transaction.customer_email,
      description: transaction.description,
      remarks: remarkRows(transaction.remarks),
      attachment: transaction.attachment_name ? { name: transaction.attachment_name, url: `/${lang}/pay/${transaction.id}/attachment` } : null,
      amount: money(amount),
      editable: Boolean(transaction.editable_amount),
      typedAmount: typed,
      amountError: chosen.ok ? null : chosen.error,
      expires: transaction.expiration_time ? formatDateTime(transaction.expiration_time, lang) : null,
      choices: choices.map((choice) => ({
        code: choice.gateway_code,
        name: choice.gateway,
        logoUrl: choice.logo_url,
        total: money(choice.amount),
        fee: choice.fee > 0 ? money(choice.fee) : null,
        feeByMerchant: choice.fee_payer === "merchant",
      })),
      selected: selected?.gateway_code ?? null,
      submissionToken: randomToken(16),
    },
  };
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: "pay.errors.unexpected", field: null }, { status: 400 });
  const intent = form.get("intent");
  if (intent && intent !== "pay") return deliveryAction(getDbFrom(context), params.transactionId, String(intent), form);
  const outcome = await startAttempt(getDbFrom(context), {
    transactionId: params.transactionId,
    gatewayCode: String(form.get("gateway_code") ?? ""),
    amountText: String(form.get("amount") ?? ""),
    submissionToken: String(form.get("submission_token") ?? ""),
    lang,
    addresses: platformAddresses(request),
  });
  if (!outcome.ok) return data({ error: outcome.error, field: outcome.field ?? null }, { status: 400 });
  return redirect(outcome.redirectUrl, 303);
}

export default function Pay() {
  const { t } = useTranslation();
  const { status, lang, unit, view, settledLink } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const nonce = useNonce();
  return (
    <div className="pay-page">
      {unit ? <PublicHeader unit={unit} lang={lang} /> : null}
      <Stack component="main" maw={720} mx="auto" p="md" gap="md">
        {status !== "payable" || !view ? (
          <>
            {actionData?.error ? <Alert color="red" role="alert">{t(actionData.error)}</Alert> : null}
            <PayStatus status={status} settledLink={settledLink ?? null} />
          </>
        ) : (
          <>
            <Card withBorder padding="lg">
              <div className="pay-parties">
                <div>
                  <Text size="sm" c="dimmed">{t("pay.from")}</Text>
                  <Text fw={700}>{unit?.title}</Text>
                </div>
                <div>
                  <Text size="sm" c="dimmed">{t("pay.to")}</Text>
                  <Text fw={700}>{view.customerName || view.customerEmail || "—"}</Text>
                  {view.customerName && view.customerEmail ? <Text size="sm">{view.customerEmail}</Text> : null}
                </div>
              </div>
              <Text size="sm" c="dimmed" mt="sm">
                {t("pay.order_no")}: {view.orderNo}
                {view.expires ? ` · ${t("pay.expires", { date: view.expires })}` : ""}
              </Text>
            </Card>
            {view.description ? <OrderDescription items={descriptionItems(view.description)} /> : null}
            {view.remarks.length ? <Remarks rows={view.remarks} /> : null}
            {view.attachment ? (
              <Anchor href={view.attachment.url} download={view.attachment.name} fw={600}>
                {t("payment_request.download_attachment")}: {view.attachment.name}
              </Anchor>
            ) : null}
            <Card withBorder padding="lg">
              <Title order={2} fz="h4" mb="xs">{t("pay.payment_details")}</Title>
              <div className="pay-line">
                <Text>{t("pay.amount")}</Text>
                <Text fw={600}>{view.amount}</Text>
              </div>
              {view.editable ? (
                <AmountForm typedAmount={view.typedAmount} selected={view.selected} error={view.amountError ?? (actionData?.field === "amount" ? actionData.error : null)} />
              ) : null}
            </Card>
            {view.delivery ? (
              <DeliverySteps
                view={{
                  ...view.delivery,
                  errors: actionData && "deliveryErrors" in actionData ? (actionData.deliveryErrors ?? null) : null,
                  values: actionData && "values" in actionData ? (actionData.values ?? null) : null,
                }}
              />
            ) : view.choices.length === 0 ? (
              <Alert color="orange">{t("pay.no_methods")}</Alert>
            ) : (
              <form method="post" data-pay-form data-choices-url={`/api/v1/plugins/payment_request/transaction/pay-choices/${view.id}`}>
                <input type="hidden" name="submission_token" value={view.submissionToken} />
                <input type="hidden" name="amount" value={view.typedAmount} />
                <Stack gap="md">
                  {actionData?.error && actionData.field !== "amount" ? (
                    <Alert color="red" role="alert">{t(actionData.error)}</Alert>
                  ) : null}
                  <PayChoices choices={view.choices} selected={view.selected} />
                </Stack>
              </form>
            )}
            {unit?.terms ? <Terms text={unit.terms} /> : null}
            <Text size="xs" c="dimmed" ta="center">{t("pay.disclaimer")}</Text>
            <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PAY_ENHANCER }} />
          </>
        )}
      </Stack>
    </div>
  );
}
