import { env } from "~/lib/env.server";
import { parseAmount, toDecimalString } from "~/lib/money";
import { money, type TextParams } from "~/lib/outcome";

/**
 * What a customer may pay on a request with an editable amount (decision 0015): at least `min` and at
 * most `max`, in minor units. The merchant sets them; by default the currency's smallest unit and ten
 * times the request's amount, never more than the platform's cap (EDITABLE_AMOUNT_CAP).
 */
export type AmountBounds = { min: number; max: number };

/** The platform's cap on an editable amount, in minor units of `currency`. */
export function editableAmountCap(currency: string): number {
  const cap = parseAmount(env().EDITABLE_AMOUNT_CAP, currency);
  if (!cap.ok) throw new Error(`EDITABLE_AMOUNT_CAP does not fit ${currency}`);
  return cap.minor;
}

export function defaultBounds(amount: number, cap: number): AmountBounds {
  return { min: 1, max: Math.min(amount * 10, cap) };
}

/** A request's bounds: those it was made with, or the defaults for one made before there were bounds. */
export function boundsOf(transaction: {
  amount: number;
  currency_code: string;
  min_amount: number | null;
  max_amount: number | null;
}): AmountBounds {
  const defaults = defaultBounds(transaction.amount, editableAmountCap(transaction.currency_code));
  return { min: transaction.min_amount ?? defaults.min, max: transaction.max_amount ?? defaults.max };
}

export type BoundsRefusal = { field: "amount" | "min_amount" | "max_amount"; code: string; params?: TextParams };

/**
 * The bounds a merchant asks for on an editable amount (decimal strings, blank for the defaults),
 * checked: within the cap, the minimum not above the maximum, the requested amount between them.
 */
export function checkBounds(input: {
  amount: number;
  currency: string;
  min?: string;
  max?: string;
}): { ok: true; bounds: AmountBounds } | { ok: false; refusals: BoundsRefusal[] } {
  const cap = editableAmountCap(input.currency);
  const capParams = { cap: money(cap, input.currency) };
  const refusals: BoundsRefusal[] = [];
  if (input.amount > cap)
    refusals.push({ field: "amount", code: "payment_request.errors.above_cap", params: capParams });
  const defaults = defaultBounds(input.amount, cap);
  const parse = (field: "min_amount" | "max_amount", text: string | undefined, fallback: number) => {
    if (!text) return fallback;
    const parsed = parseAmount(text, input.currency);
    if (!parsed.ok) refusals.push({ field, code: parsed.error });
    else if (parsed.minor <= 0) refusals.push({ field, code: "money.invalid" });
    else if (parsed.minor > cap) refusals.push({ field, code: "payment_request.errors.above_cap", params: capParams });
    else return parsed.minor;
    return null;
  };
  const min = parse("min_amount", input.min, defaults.min);
  const max = parse("max_amount", input.max, defaults.max);
  if (min !== null && max !== null && min > max)
    refusals.push({ field: "min_amount", code: "payment_request.errors.min_above_max" });
  else if (input.amount <= cap) {
    if (min !== null && min > input.amount)
      refusals.push({ field: "min_amount", code: "payment_request.errors.min_above_amount" });
    if (max !== null && max < input.amount)
      refusals.push({ field: "max_amount", code: "payment_request.errors.max_below_amount" });
  }
  if (refusals.length || min === null || max === null) return { ok: false, refusals };
  return { ok: true, bounds: { min, max } };
}

/** What the customer may type on an editable amount, as decimal strings; null when the amount is fixed. */
export function decimalBoundsOf(transaction: {
  amount: number;
  currency_code: string;
  editable_amount: number;
  min_amount: number | null;
  max_amount: number | null;
}) {
  if (!transaction.editable_amount) return { min_amount: null, max_amount: null };
  const bounds = boundsOf(transaction);
  return {
    min_amount: toDecimalString(bounds.min, transaction.currency_code),
    max_amount: toDecimalString(bounds.max, transaction.currency_code),
  };
}
