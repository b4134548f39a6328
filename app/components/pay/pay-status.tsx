import { useText } from "~/components/pay/use-text";
import { ContactMerchant, type ContactView } from "./contact-merchant";
import { Card } from "./ui";

type Status = "not_found" | "paused" | "expired" | "settled" | "closed" | "payable";

const texts: Record<Exclude<Status, "payable">, { title: string; message?: string }> = {
  not_found: { title: "pay.not_found", message: "pay.not_found_message" },
  paused: { title: "pay.paused" },
  expired: { title: "pay.expired" },
  settled: { title: "pay.settled_title", message: "pay.settled_message" },
  closed: { title: "pay.closed_title" },
};

/** Every state of a pay link in which there is nothing to pay. */
export function PayStatus({
  status,
  settledLink,
  contact,
  returning = null,
}: {
  status: Status;
  settledLink: string | null;
  contact: ContactView | null;
  /** The payment that settled it is being (or has been) given back by the platform. */
  returning?: "returning" | "returned" | null;
}) {
  const t = useText();
  if (status === "payable") return null;
  const text =
    (status === "settled" || status === "closed") && returning
      ? { title: `pay.${returning}_title`, message: "pay.returning_message" }
      : texts[status];
  return (
    <Card padding="xl">
      <div className="c-stack c-stack--tight c-center">
        {status === "not_found" ? <img src="/illustrations/not-found.svg" alt="" width={160} height={120} /> : null}
        <h1 className="c-title">{t(text.title)}</h1>
        {text.message ? <p className="c-dimmed">{t(text.message)}</p> : null}
        {contact ? <ContactMerchant contact={contact} /> : null}
        {settledLink ? (
          <a className="c-link" href={settledLink}>
            {t("pay.view_receipt")}
          </a>
        ) : null}
      </div>
    </Card>
  );
}
