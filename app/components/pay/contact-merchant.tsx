import { IconMail, IconPhone, IconWorld } from "@tabler/icons-react";
import { useText } from "~/components/pay/use-text";
import { EmailAddress } from "./email-address";

export type ContactView = {
  merchant: string | null;
  email: string | null;
  phone: { href: string; text: string } | null;
  website: { href: string; text: string } | null;
};

/** How to reach the merchant, for a link that can no longer be paid: only what the merchant has set. */
export function ContactMerchant({ contact }: { contact: ContactView }) {
  const t = useText();
  const any = contact.email || contact.phone || contact.website;
  return (
    <div className="contact-merchant">
      <p className="c-text">
        {contact.merchant ? t("pay.contact_merchant", { merchant: contact.merchant }) : t("pay.closed_message")}
      </p>
      {any ? (
        <ul className="contact-merchant__list">
          {contact.email ? (
            <li>
              <IconMail size={18} aria-hidden />
              <a
                className="c-link"
                href={`mailto:${contact.email}`}
                aria-label={`${t("pay.contact_email")}: ${contact.email}`}
              >
                <EmailAddress value={contact.email} />
              </a>
            </li>
          ) : null}
          {contact.phone ? (
            <li>
              <IconPhone size={18} aria-hidden />
              <a
                className="c-link"
                href={`tel:${contact.phone.href}`}
                dir="ltr"
                aria-label={`${t("pay.contact_phone")}: ${contact.phone.text}`}
              >
                {contact.phone.text}
              </a>
            </li>
          ) : null}
          {contact.website ? (
            <li>
              <IconWorld size={18} aria-hidden />
              <a
                className="c-link"
                href={contact.website.href}
                dir="ltr"
                rel="noopener noreferrer"
                target="_blank"
                aria-label={`${t("pay.website")}: ${contact.website.text}`}
              >
                {contact.website.text}
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
