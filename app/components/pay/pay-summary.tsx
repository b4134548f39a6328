import { IconPaperclip } from "@tabler/icons-react";
import { useText } from "~/components/pay/use-text";
import { EmailAddress } from "./email-address";
import { descriptionItems, OrderDescription } from "./order-description";
import { Remarks } from "./remarks";
import { Card } from "./ui";

type SummaryView = {
  orderNo: number;
  amount: string;
  expires: string | null;
  customerName: string;
  customerEmail: string | null;
  description: string | null;
  remarks: [string, string][];
  attachment: { name: string; url: string } | null;
};

/**
 * The top of the pay page: who asks, how much and by when, on the first screen of a phone. What
 * the order holds (items, remarks, an attachment) folds into one line below, so the payment
 * methods and the Pay button stay close whatever the merchant wrote.
 */
export function PaySummary({ view, merchant }: { view: SummaryView; merchant: string | null }) {
  const t = useText();
  const items = descriptionItems(view.description);
  const parts = [
    items.length ? t("pay.order_description") : null,
    view.remarks.length ? t("pay.remarks") : null,
    view.attachment ? t("pay.attachment") : null,
  ].filter((part): part is string => Boolean(part));
  return (
    <Card className="pay-summary">
      <div className="pay-summary__head">
        <p className="pay-summary__from">
          {merchant ? (
            <>
              <span className="c-dimmed">{t("pay.from")}</span> <span className="c-strong">{merchant}</span>
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
        <div className="pay-summary__to">
          <dt className="c-dimmed">{t("pay.to")}</dt>
          <dd>
            {view.customerName ? <span className="c-strong">{view.customerName}</span> : null}
            {view.customerName && view.customerEmail ? <br /> : null}
            {view.customerEmail ? <EmailAddress value={view.customerEmail} /> : null}
            {!view.customerName && !view.customerEmail ? "—" : null}
          </dd>
        </div>
      </dl>
      {parts.length ? (
        <details className="pay-details">
          <summary>{parts.join(" · ")}</summary>
          <div className="pay-details__body">
            {items.length ? <OrderDescription items={items} /> : null}
            {view.remarks.length ? <Remarks rows={view.remarks} /> : null}
            {view.attachment ? (
              <a className="c-link pay-details__attachment" href={view.attachment.url} download={view.attachment.name}>
                <IconPaperclip size={18} aria-hidden />
                {t("payment_request.download_attachment")}: {view.attachment.name}
              </a>
            ) : null}
          </div>
        </details>
      ) : null}
    </Card>
  );
}
