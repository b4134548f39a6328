import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { useText } from "~/components/pay/use-text";
import { Button } from "./ui";

type Choice = {
  code: string;
  name: string;
  logoUrl: string | null;
  total: string;
  /** The total as a decimal string, for a wallet's payment sheet. */ amount?: string;
  fee: string | null;
  feeByMerchant: boolean;
  cashOnDelivery: boolean;
};

/**
 * The payment methods as radio cards in a row that scrolls (4 visible, 3 under 600 px), then one
 * submit button per method, each with its own total (docs/decisions/0017). The stylesheet shows
 * only the chosen method's button, with or without JavaScript; a browser that cannot do that shows
 * them all, each naming its method. Whichever is pressed says what is paid: its method is sent as
 * `pay_with`. The small pay-page script (pay-enhancer) adds the arrows and keeps the totals in step
 * with an amount the customer types.
 */
export function PayChoices({ choices, selected }: { choices: Choice[]; selected: string | null }) {
  const t = useText();
  const chosen = choices.find((choice) => choice.code === selected) ?? choices[0];
  const template = t("pay.pay_now", { amount: "{amount}" });
  return (
    <fieldset className="pay-choices-fieldset" id="payment-methods">
      <legend>
        <span className="c-strong">{t("pay.choose_method")}</span>
      </legend>
      <div className="pay-choices-row">
        <Button
          variant="default"
          className="c-icon-button"
          data-scroll="previous"
          aria-label={t("pay.previous")}
          hidden
        >
          <IconChevronLeft size={18} className="flip-rtl" />
        </Button>
        <div className="pay-choices">
          {choices.map((choice) => (
            <label key={choice.code} className="pay-choice" data-gateway={choice.code}>
              <input
                type="radio"
                name="gateway_code"
                value={choice.code}
                defaultChecked={choice.code === chosen?.code}
                data-total={choice.total}
                data-amount={choice.amount}
                required
              />
              <span className="pay-choice__card">
                {choice.logoUrl ? <img src={choice.logoUrl} alt="" width={72} height={36} /> : null}
                <span className="pay-choice__name">{choice.name}</span>
                <span className="pay-choice__total">{choice.total}</span>
                <span className="pay-choice__fee">
                  {choice.fee ? t("pay.fee_line", { fee: choice.fee }) : t("pay.no_fee")}
                </span>
              </span>
            </label>
          ))}
        </div>
        <Button variant="default" className="c-icon-button" data-scroll="next" aria-label={t("pay.next")} hidden>
          <IconChevronRight size={18} className="flip-rtl" />
        </Button>
      </div>
      {/* The form's default button, which Enter presses: it names no method, so the chosen one is paid. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      <div className="pay-now-list">
        {choices.map((choice) => (
          <Button
            key={choice.code}
            type="submit"
            size="lg"
            fullWidth
            className="pay-now"
            name="pay_with"
            value={choice.code}
            data-pay-now={choice.code}
            data-template={choice.cashOnDelivery ? undefined : template}
          >
            <span className="pay-now__label">
              {choice.cashOnDelivery ? t("pay.confirm_order") : template.replace("{amount}", choice.total).trim()}
            </span>
            <span className="pay-now__method"> · {choice.name}</span>
          </Button>
        ))}
      </div>
    </fieldset>
  );
}
