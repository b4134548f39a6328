import "~/styles/customer.css";
import "~/styles/pay.css";
import { IconCircleCheck, IconCircleX, IconClockHour4, IconDownload, IconTicket } from "@tabler/icons-react";
import { useText } from "~/components/pay/use-text";
import { data, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/attempt-detail";
import { PublicHeader } from "~/components/pay/public-header";
import { Card, LinkButton } from "~/components/pay/ui";
import { findAttempt, settleByInquiry } from "~/domain/payments/attempts.server";
import { findMerchantGateway } from "~/domain/payments/gateway-settings.server";
import { findPublicTransaction, isExpired } from "~/domain/payments/pay-page.server";
import { customerResultRows, failureReasonOf } from "~/presentation/result-rows.server";
import { merchantContactView } from "~/presentation/public-pay-view.server";
import { ContactMerchant } from "~/components/pay/contact-merchant";
import { formatAmount } from "~/lib/money";
import { loadUnitHeader } from "~/domain/merchants/units.server";
import { platformAddresses } from "~/web/addresses.server";
import { isLocalPath } from "~/web/guards.server";
import { isLanguage } from "~/lib/i18n";
import { getDbFrom } from "~/web/request-context.server";
import { customerReturnUrl, transactionExtensions } from "~/sections/registry.server";

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
  const expired = failedOrOpen && (transaction.state === "expired" || isExpired(transaction));
  return {
    found: true as const,
    lang,
    unit,
    state: attempt.state,
    reason: attempt.state === "success" || attempt.state === "cod" || attempt.state === "pending" ? null : failureReasonOf(attempt),
    expired,
    contact: expired ? await merchantContactView(db, attempt.merchant_id, unit) : null,
    amount: formatAmount(attempt.total, attempt.currency_code, lang),
    rows: customerResultRows(attempt, transaction.order_no, gateway, lang),
    description: transaction.description,
    receiptUrl: failedOrOpen ? null : `/${lang}/pay/attempt-detail/${attempt.id}/receipt.pdf`,
    // What the payment bought, when its section gives it to download (an event's tickets).
    ticketsUrl: attempt.state === "success" ? ((await transactionExtensions(transaction.plugin)?.ticketsUrl?.(db, transaction.id, lang)) ?? null) : null,
    // Where the customer follows what the payment ordered (a restaurant order's state).
    followUrl: attempt.state === "success" || attempt.state === "cod" ? ((await transactionExtensions(transaction.plugin)?.followUrl?.(db, transaction.id, lang)) ?? null) : null,
    attachment: transaction.attachment_name ? { name: transaction.attachment_name, url: `/${lang}/pay/${transaction.id}/attachment` } : null,
    tryAgainUrl: `/${lang}/pay/${transaction.id}`,
    next: safeNext(new URL(request.url).searchParams.get("next"), transaction.next_url),
    // Where a section sends the customer on once the result is known (a checkout session's merchant site).
    returnUrl:
      attempt.state === "pending"
        ? null
        : await customerReturnUrl(db, { transactionId: transaction.id, attemptId: attempt.id, result: expired ? "expired" : attempt.state, lang }),
  };
}

export default function AttemptDetail() {
  const t = useText();
  const result = useLoaderData<typeof loader>();
  const location = useLocation();
  if (!result.found) {
    return (
      <main className="c-main c-main--narrow">
        <Card padding="xl" style={{ textAlign: "center" }}>
          <h1 className="c-title">{t("result.not_found")}</h1>
        </Card>
      </main>
    );
  }
  const cod = result.state === "cod";
  const success = result.state === "success" || cod;
  const pending = result.state === "pending";
  const failed = !success && !pending;
  const Icon = success ? IconCircleCheck : pending ? IconClockHour4 : IconCircleX;
  const color = success ? "green" : pending ? "orange" : "red";
  const title = success
    ? t(cod ? "result.cod_title" : "result.success_title")
    : pending
      ? t("result.pending_title")
      : result.expired
        ? t("result.expired_message")
        : t(`result.reasons.${result.reason}.title`);
  return (
    <div className="pay-page">
      {result.returnUrl ? <meta httpEquiv="refresh" content={`3;url=${result.returnUrl}`} /> : result.next ? <meta httpEquiv="refresh" content={`3;url=${result.next}`} /> : null}
      {result.unit ? <PublicHeader unit={result.unit} lang={result.lang} path={location.pathname + location.search} /> : null}
      <main className="c-main c-main--narrow">
        <Card padding="xl">
          <div className="c-stack c-stack--tight c-center">
            <Icon size={56} color={`var(--mantine-color-${color}-6)`} aria-hidden />
            <h1 className="c-title">{title}</h1>
            {pending ? <p className="c-dimmed">{t("result.pending_message")}</p> : null}
            {failed && !result.expired ? (
              <>
                <p className="c-dimmed">{t(`result.reasons.${result.reason}.message`)}</p>
                <p className="result-secondary">{t("result.failed_title")}</p>
              </>
            ) : null}
            {result.expired ? null : (
              <p className={cod ? "result-amount result-amount--on-delivery" : "result-amount"}>{cod ? t("result.cod_amount", { amount: result.amount }) : result.amount}</p>
            )}
            {result.contact ? <ContactMerchant contact={result.contact} /> : null}
            {pending ? (
              <LinkButton href="" variant="default">
                {t("result.refresh")}
              </LinkButton>
            ) : null}
            {failed && !result.expired ? (
              <LinkButton href={result.tryAgainUrl} fullWidth>
                {t("result.try_again")}
              </LinkButton>
            ) : null}
            {result.receiptUrl ? (
              <LinkButton variant="light" href={result.receiptUrl} download>
                <IconDownload size={18} aria-hidden />
                {t(cod ? "result.download_confirmation" : "result.download_receipt")}
              </LinkButton>
            ) : null}
            {result.ticketsUrl ? (
              <LinkButton variant="light" href={result.ticketsUrl}>
                <IconTicket size={18} aria-hidden />
                {t("result.download_tickets")}
              </LinkButton>
            ) : null}
            {result.followUrl ? <LinkButton href={result.followUrl}>{t("result.follow_order")}</LinkButton> : null}
            {result.returnUrl ? (
              <LinkButton href={result.returnUrl} fullWidth>
                {t("checkout_public.continue")}
              </LinkButton>
            ) : null}
            {result.next || result.returnUrl ? <p className="c-dimmed c-small">{t("result.redirecting")}</p> : null}
            {result.attachment ? (
              <LinkButton variant="subtle" href={result.attachment.url} download={result.attachment.name}>
                {t("payment_request.download_attachment")}
              </LinkButton>
            ) : null}
          </div>
        </Card>
        {result.expired ? null : (
          <details className="result-references" open>
            <summary>
              <h2>{t(cod ? "result.confirmation_details" : "result.details")}</h2>
            </summary>
            <table className="c-table">
              <tbody>
                {result.rows.map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row">{t(label)}</th>
                    <td>{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        )}
        {success && result.description ? (
          <Card>
            <h2 className="c-subtitle">{t("pay.order_description")}</h2>
            <p className="c-text" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {result.description}
            </p>
          </Card>
        ) : null}
      </main>
    </div>
  );
}
