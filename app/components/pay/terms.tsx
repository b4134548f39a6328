import { useText } from "~/components/pay/use-text";

/**
 * The merchant's terms in a dialog that opens and closes without JavaScript: the link targets the
 * dialog (#terms, shown by :target in CSS) and Agree goes back to the payment methods.
 */
export function Terms({ text }: { text: string }) {
  const t = useText();
  return (
    <>
      <p className="pay-terms-link">
        {t("pay.terms_prefix")} <a href="#terms">{t("pay.terms_link")}</a>
      </p>
      <div id="terms" className="terms-modal" role="dialog" aria-modal="true" aria-labelledby="terms-title">
        <div className="terms-modal__panel">
          <h2 id="terms-title">{t("pay.terms_title")}</h2>
          <p style={{ whiteSpace: "pre-wrap" }}>{text}</p>
          <a href="#payment-methods" className="terms-modal__agree">
            {t("pay.agree")}
          </a>
        </div>
      </div>
    </>
  );
}
