import type { ReactNode } from "react";
import { Button, TextField } from "~/components/pay/ui";
import { PriceLine } from "./price";

/** One line of a cart or an order: what and how many, its amount, then what the section adds below (details, errors, forms). */
export function CartLine({
  id,
  label,
  amount,
  children,
}: {
  id?: string;
  label: ReactNode;
  amount: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="c-line" id={id}>
      <PriceLine label={label} amount={amount} />
      {children}
    </div>
  );
}

/**
 * A cart line's two plain forms: change how many (left out when the line can no longer be changed),
 * and remove. Each posts `intent` and the line's key (`keyName` = `keyValue`) to `action`.
 */
export function LineQuantityForms({
  action,
  keyName,
  keyValue,
  quantity,
  max,
  changeable = true,
  labels,
}: {
  action: string;
  keyName: string;
  keyValue: string | number;
  quantity: number;
  max: number;
  changeable?: boolean;
  labels: { quantity: string; update: string; remove: string };
}) {
  return (
    <div className="c-line__actions">
      {changeable ? (
        <form method="post" action={action} className="c-line__actions">
          <input type="hidden" name="intent" value="quantity" />
          <input type="hidden" name={keyName} value={keyValue} />
          <input
            className="c-input"
            type="number"
            name="quantity"
            inputMode="numeric"
            min={1}
            max={max}
            defaultValue={quantity}
            aria-label={labels.quantity}
          />
          <Button type="submit" variant="default" size="xs">
            {labels.update}
          </Button>
        </form>
      ) : null}
      <form method="post" action={action}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name={keyName} value={keyValue} />
        <Button type="submit" variant="subtle" size="xs">
          {labels.remove}
        </Button>
      </form>
    </div>
  );
}

export type PaymentChoice = { code: string; name: string; logoUrl: string | null };

/** The checkout's payment methods as radio buttons (the first, or the one sent back, chosen). */
export function PaymentChoices({
  legend,
  gateways,
  chosen,
  error,
  none,
}: {
  legend: string;
  gateways: PaymentChoice[];
  chosen: string | undefined;
  error?: string | null;
  none?: string;
}) {
  return (
    <fieldset className="c-choices">
      <legend>{legend}</legend>
      {gateways.map((gateway, index) => (
        <label key={gateway.code} className="c-choice">
          <input
            type="radio"
            name="gateway_code"
            value={gateway.code}
            required
            defaultChecked={chosen !== undefined ? chosen === gateway.code : index === 0}
          />
          {gateway.logoUrl ? <img src={gateway.logoUrl} alt="" height={24} /> : null}
          {gateway.name}
        </label>
      ))}
      {gateways.length === 0 && none ? <p className="c-dimmed">{none}</p> : null}
      {error ? <p className="c-field__error">{error}</p> : null}
    </fieldset>
  );
}

/**
 * The checkout's offer code (a voucher, a discount code) and its own submit button, which applies it
 * without checking the rest of the form; the button drops below the field on a narrow phone.
 */
export function OfferCodeField({
  name,
  intent,
  labels,
  defaultValue,
  error,
}: {
  name: string;
  intent: string;
  labels: { field: string; apply: string };
  defaultValue: string;
  error?: string | null;
}) {
  return (
    <div className="c-inline">
      <TextField
        name={name}
        label={labels.field}
        maxLength={40}
        defaultValue={defaultValue}
        error={error ?? undefined}
        dir="ltr"
        autoComplete="off"
      />
      <Button type="submit" name="intent" value={intent} variant="default" formNoValidate>
        {labels.apply}
      </Button>
    </div>
  );
}
