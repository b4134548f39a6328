import "~/styles/customer.css";
import "~/styles/pay.css";
import {
  IconArrowBackUp,
  IconCircleCheck,
  IconCircleX,
  IconClockHour4,
  IconDownload,
  IconTicket,
} from "@tabler/icons-react";
import { useText } from "./use-text";
import { PublicHeader } from "~/components/customer/public-header";
import { Card, LinkButton } from "./ui";
import { ContactMerchant } from "./contact-merchant";
import type { AttemptResultData } from "~/presentation/attempt-result.server";

/**
 * The attempt result page (public spec): success, pending or failed, with the payment's details.
 * The platform's result page and a section's own (the Shopify flow's payment details) render it;
 * `result.note` and `result.backLink` are what a section adds.
 */
export function AttemptResult({ result, path }: { result: AttemptResultData; path: string }) {
  const t = useText();
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
  const returning = success ? result.paymentReturn : null;
  const Icon = returning ? IconArrowBackUp : success ? IconCircleCheck : pending ? IconClockHour4 : IconCircleX;
  const color = returning ? "blue" : success ? "green" : pending ? "orange" : "red";
  const title = returning
    ? t(returning.done ? "result.returned_title" : "result.returning_title")
    : success
      ? t(cod ? "result.cod_title" : "result.success_title")
      : pending
        ? t("result.pending_title")
        : result.expired
          ? t("result.expired_message")
          : t(`result.reasons.${result.reason}.title`);
  return (
    <div className="pay-page">
      {result.returnUrl ? (
        <meta httpEquiv="refresh" content={`3;url=${result.returnUrl}`} />
      ) : result.next ? (
        <meta httpEquiv="refresh" content={`3;url=${result.next}`} />
      ) : null}
      {result.unit ? <PublicHeader unit={result.unit} lang={result.lang} path={path} /> : null}
      <main className="c-main c-main--narrow">
        <Card padding="xl">
          <div className="c-stack c-stack--tight c-center">
            <Icon size={56} color={`var(--mantine-color-${color}-6)`} aria-hidden />
            <h1 className="c-title">{title}</h1>
            {returning ? <p className="c-dimmed">{t(`result.returning_reasons.${returning.reason}`)}</p> : null}
            {success && result.note ? (
              <p className="result-note" role="note">
                {t(result.note)}
              </p>
            ) : null}
            {pending ? <p className="c-dimmed">{t("result.pending_message")}</p> : null}
            {failed && !result.expired ? (
              <>
                <p className="c-dimmed">{t(`result.reasons.${result.reason}.message`)}</p>
                <p className="result-secondary">{t("result.failed_title")}</p>
              </>
            ) : null}
            {result.expired ? null : (
              <p className={cod ? "result-amount result-amount--on-delivery" : "result-amount"}>
                {cod ? t("result.cod_amount", { amount: result.amount }) : result.amount}
              </p>
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
            {result.backLink ? (
              <LinkButton href={result.backLink.href} variant={failed ? "default" : "filled"} fullWidth>
                {t(result.backLink.label)}
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
                {t("result.continue_to_merchant")}
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
