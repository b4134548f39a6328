import { useText } from "~/components/pay/use-text";
import { Button, TextField } from "./ui";

/**
 * The editable amount: a GET form whose Update button re-prices the payment methods. With
 * JavaScript, the pay-page script re-prices them in place 500 ms after the last key instead.
 */
export function AmountForm({
  typedAmount,
  selected,
  field,
  error,
}: {
  typedAmount: string;
  selected: string | null;
  /**
   * What the customer may type: the bounds, and the range as the hint shows it. A text field with a
   * decimal keypad, not type="number", which would refuse Arabic-Indic digits before the server could
   * read them and silently drop what it cannot parse.
   */
  field: { min: string; max: string; range: { min: string; max: string } };
  error: { key: string; values?: Record<string, string> } | null;
}) {
  const t = useText();
  return (
    <form method="get" data-amount-form>
      {selected ? <input type="hidden" name="gateway" value={selected} /> : null}
      <div className="amount-form__row">
        <TextField
          name="amount"
          data-min={field.min}
          data-max={field.max}
          label={t("pay.amount_to_pay")}
          description={`${t("pay.amount_help")} ${t("pay.amount_range", field.range)}`}
          defaultValue={typedAmount}
          inputMode="decimal"
          autoComplete="off"
          maxLength={20}
          aria-invalid={error ? true : undefined}
          aria-describedby="field-amount-description amount-error"
        />
        <Button type="submit" variant="default">
          {t("pay.update")}
        </Button>
      </div>
      <p id="amount-error" className="c-field__error" role="alert" data-amount-error>
        {error ? t(error.key, error.values) : ""}
      </p>
    </form>
  );
}
