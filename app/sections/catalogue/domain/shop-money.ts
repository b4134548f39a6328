import { exponentOf, parseAmount, toDecimalString } from "~/lib/money";
import { addError, type FieldErrors } from "./fields";

/**
 * The shop's money: its currency and the decimals its prices are shown with (catalogue
 * configuration `decimal_places`, at most the currency's own). Amounts are minor units of the
 * currency; a price may not carry decimals the shop does not show, so what a customer reads is
 * exactly what they pay.
 */
export type ShopMoney = { currency: string; places: number };

export function shopMoneyOf(currency: string, decimalPlaces: number | null): ShopMoney {
  const exponent = exponentOf(currency);
  return { currency, places: decimalPlaces === null ? exponent : Math.min(decimalPlaces, exponent) };
}

/** Minor units per last shown decimal: 10 for a KWD shop showing 2 decimals. */
export function stepOf(money: ShopMoney) {
  return 10 ** (exponentOf(money.currency) - money.places);
}

/** The API's and the forms' decimal string: the currency's own decimals ("2.750"). */
export function decimalOf(minor: number, money: ShopMoney) {
  return toDecimalString(Number(minor), money.currency);
}

/** Minor units of a decimal text, or an error on `field`; undefined for an absent value. */
export function minorOf(
  value: string | null | undefined,
  money: ShopMoney,
  field: string,
  errors: FieldErrors,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = parseAmount(value === "" ? "0" : value, money.currency);
  if (!parsed.ok) {
    addError(errors, field, parsed.error);
    return undefined;
  }
  if (parsed.minor % stepOf(money) !== 0) {
    addError(errors, field, "catalogue_admin.errors.decimals", { places: money.places });
    return undefined;
  }
  return parsed.minor;
}
