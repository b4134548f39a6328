import "~/styles/customer.css";
import "~/styles/pay.css";
import { data, redirect, useActionData, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/payment-options";
import { PayChoices } from "~/components/pay/pay-choices";
import { PayStatus } from "~/components/pay/pay-status";
import { PublicHeader } from "~/components/customer/public-header";
import { Alert, Card, LinkButton } from "~/components/pay/ui";
import { useText } from "~/components/pay/use-text";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { defaultChoice, loadPayPage, payChoicesFor } from "~/domain/payments/pay-page.server";
import { randomToken } from "~/lib/crypto.server";
import { formatDateTime } from "~/lib/format";
import { isLanguage } from "~/lib/i18n";
import { formatAmount } from "~/lib/money";
import { merchantContactView } from "~/presentation/public-pay-view.server";
import { getDbFrom } from "~/web/request-context.server";
import { isPersonVisit } from "~/web/visitors.server";
import { findSession } from "../../domain/sessions.server";
import { startShopifyAttempt } from "../../presentation/pay.server";

/** Served as plain HTML: no React on the client (decision 0005). */
export const handle = { hydrate: false };

export function meta({ data: page }: Route.MetaArgs) {
  return [{ title: page?.unit?.title ?? "Pay" }, { name: "robots", content: "noindex" }];
}

/**
 * The Shopify flow's payment options (public spec §2): the shop's order, the amount and the
 * methods; choosing one starts the payment. A paid or expired session shows what happened and the
 * way back to the shop, never a pay button.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const db = getDbFrom(context);
  const page = await loadPayPage(db, params.transactionId, ["shopify"], { opens: isPersonVisit(request) });
  if (page.status === "not_found")
    return data(
      { lang, status: page.status, unit: null, view: null, settledLink: null, contact: null, cancelUrl: null },
      { status: 404 },
    );
  const { transaction } = page;
  const [unit, session] = await Promise.all([loadUnitHeader(db, transaction, lang), findSession(db, transaction.id)]);
  const cancelUrl = session?.cancel_url ?? null;
  if (page.status !== "payable") {
    const settledLink =
      page.status === "settled" && transaction.paid_attempt_id
        ? `/${lang}/spf/payment-details/${transaction.paid_attempt_id}`
        : null;
    const contact =
      page.status === "expired" || page.status === "closed"
        ? await merchantContactView(db, transaction.merchant_id, unit)
        : null;
    return data(
      {
        lang,
        status: page.status,
        unit,
        view: null,
        settledLink,
        contact,
        cancelUrl: page.status === "settled" ? null : cancelUrl,
      },
      { status: page.status === "paused" ? 423 : 200 },
    );
  }
  const choices = await payChoicesFor(db, transaction, transaction.amount, lang);
  const money = (minor: number) => formatAmount(minor, transaction.currency_code, lang);
  return {
    lang,
    status: page.status,
    unit,
    settledLink: null,
    contact: null,
    cancelUrl,
    view: {
      id: transaction.id,
      orderNo: transaction.order_no,
      reference: session?.group_id ?? null,
      shop: session?.shop_domain ?? null,
      test: session?.test === 1,
      amount: money(transaction.amount),
      expires: transaction.expiration_time ? formatDateTime(transaction.expiration_time, lang) : null,
      choices: choices.map((choice) => ({
        code: choice.gateway_code,
        name: choice.gateway,
        logoUrl: choice.logo_url,
        total: money(choice.amount),
        fee: choice.fee > 0 ? money(choice.fee) : null,
        cashOnDelivery: choice.kind === "cod",
        feeByMerchant: choice.fee_payer === "merchant",
      })),
      selected: defaultChoice(choices)?.gateway_code ?? null,
      submissionToken: randomToken(16),
    },
  };
}

/** Pay: the method pressed (or the one chosen) starts the payment; refused, the page says why. */
export async function action({ params, context, request }: Route.ActionArgs) {
  const lang = isLanguage(params.lang) ? params.lang : "en";
  const form = await request.formData().catch(() => null);
  const outcome = await startShopifyAttempt(getDbFrom(context), request, {
    transactionId: params.transactionId,
    gatewayCode: String(form?.get("pay_with") ?? form?.get("gateway_code") ?? ""),
    submissionToken: String(form?.get("submission_token") ?? ""),
    lang,
  });
  if (!outcome.ok) return data({ error: outcome.error }, { status: outcome.status });
  return redirect(outcome.redirectUrl, 303);
}

export default function PaymentOptions() {
  const t = useText();
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const location = useLocation();
  const { view, unit } = page;
  return (
    <div className="pay-page">
      {unit ? <PublicHeader unit={unit} lang={page.lang} path={location.pathname + location.search} /> : null}
      <main className="c-main">
        {page.status !== "payable" || !view ? (
          <>
            {reply?.error ? <Alert color="red">{t(reply.error)}</Alert> : null}
            <PayStatus status={page.status} settledLink={page.settledLink} contact={page.contact} />
            {page.status === "settled" ? <p className="result-note">{t("shopify_public.do_not_pay_again")}</p> : null}
            {page.cancelUrl ? (
              <LinkButton href={page.cancelUrl} variant="default" fullWidth>
                {t("shopify_public.back_to_shop")}
              </LinkButton>
            ) : null}
          </>
        ) : (
          <>
            <Card className="pay-summary">
              <div className="pay-summary__head">
                <p className="pay-summary__from">
                  {unit?.title ? (
                    <>
                      <span className="c-dimmed">{t("pay.from")}</span> <span className="c-strong">{unit.title}</span>
                    </>
                  ) : null}
                </p>
                <p className="pay-summary__order">
                  <span className="c-dimmed">{t("pay.order_no")}</span> {view.orderNo}
                </p>
              </div>
              <p className="pay-summary__amount">{view.amount}</p>
              {view.expires ? <p className="pay-summary__due">{t("pay.expires", { date: view.expires })}</p> : null}
              <dl className="pay-summary__facts">
                {view.reference ? (
                  <div>
                    <dt className="c-dimmed">{t("shopify_public.reference")}</dt>
                    <dd className="c-strong" dir="ltr">
                      {view.reference}
                    </dd>
                  </div>
                ) : null}
                {view.shop ? (
                  <div>
                    <dt className="c-dimmed">{t("shopify_public.shop")}</dt>
                    <dd dir="ltr">{view.shop}</dd>
                  </div>
                ) : null}
              </dl>
              {view.test ? <p className="c-dimmed c-xs">{t("shopify_public.test_payment")}</p> : null}
            </Card>
            {view.choices.length === 0 ? (
              <Alert color="orange">{t("pay.no_methods")}</Alert>
            ) : (
              <form method="post">
                <input type="hidden" name="submission_token" value={view.submissionToken} />
                <div className="c-stack">
                  {reply?.error ? <Alert color="red">{t(reply.error)}</Alert> : null}
                  <PayChoices choices={view.choices} selected={view.selected} />
                </div>
              </form>
            )}
            {page.cancelUrl ? (
              <LinkButton href={page.cancelUrl} variant="subtle" fullWidth>
                {t("shopify_public.cancel_and_return")}
              </LinkButton>
            ) : null}
            <p className="c-dimmed c-xs" style={{ textAlign: "center" }}>
              {unit?.disclaimer ?? t("pay.disclaimer")}
            </p>
          </>
        )}
      </main>
    </div>
  );
}
