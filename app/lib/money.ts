/**
 * Money as integers in minor units of an ISO 4217 currency. No floats anywhere: amounts are
 * parsed from and formatted to decimal strings with integer arithmetic.
 */

const EXPONENTS: Record<string, number> = {
  KWD: 3,
  BHD: 3,
  OMR: 3,
  JOD: 3,
  IQD: 3,
  LYD: 3,
  TND: 3,
  JPY: 0,
  KRW: 0,
  CLP: 0,
  ISK: 0,
  VND: 0,
  XAF: 0,
  XOF: 0,
  UGX: 0,
  PYG: 0,
  RWF: 0,
};

export const SUPPORTED_CURRENCIES = [
  "KWD",
  "USD",
  "EUR",
  "GBP",
  "SAR",
  "AED",
  "QAR",
  "BHD",
  "OMR",
  "EGP",
  "JOD",
  "JPY",
] as const;

export type SupportedCurrency = (typeof SUPPORTED_CURRENCIES)[number];

export function isSupportedCurrency(code: unknown): code is SupportedCurrency {
  return typeof code === "string" && (SUPPORTED_CURRENCIES as readonly string[]).includes(code);
}

/** Decimal places of a currency (ISO 4217 minor unit); 2 for any currency not in the table. */
export function exponentOf(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

export type ParsedAmount =
  | { ok: true; minor: number }
  | { ok: false; error: "money.invalid" | "money.too_many_decimals" | "money.too_large" | "money.thousands_separator" };

const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/**
 * "12.500" KWD → 12500. Accepts plain decimal notation only; refuses more decimals than the currency
 * has. A comma is refused, not guessed: "1,000" is a thousand to some and one to others, and a
 * wrong guess charges a customer a thousand times too much or too little.
 */
export function parseAmount(text: string, currency: string): ParsedAmount {
  // Arabic-Indic digits and the Arabic decimal separator are accepted as typed on Arabic keyboards.
  const value = text
    .trim()
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/\u066b/g, ".");
  // The comma, the Arabic comma and the Arabic thousands separator.
  if (/[,\u060c\u066c]/.test(value)) return { ok: false, error: "money.thousands_separator" };
  const match = /^(\d+)(?:\.(\d*))?$/.exec(value);
  if (!match) return { ok: false, error: "money.invalid" };
  const [, whole, fraction = ""] = match;
  const exponent = exponentOf(currency);
  const trimmedFraction = fraction.replace(/0+$/, "");
  if (trimmedFraction.length > exponent) return { ok: false, error: "money.too_many_decimals" };
  const digits = `${whole}${fraction.padEnd(exponent, "0").slice(0, exponent)}`.replace(/^0+(?=\d)/, "");
  if (digits.length > 15) return { ok: false, error: "money.too_large" };
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR) return { ok: false, error: "money.too_large" };
  return { ok: true, minor };
}

/** 12500 KWD → "12.500"; the API's decimal string. */
export function toDecimalString(minor: number, currency: string): string {
  assertMinor(minor);
  const exponent = exponentOf(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** 12500 KWD in English → "KWD 12.500"; in Arabic → "12.500 د.ك." with Latin digits. */
export function formatAmount(minor: number, currency: string, lang: "en" | "ar"): string {
  const key = `${lang}:${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const exponent = exponentOf(currency);
    formatter = new Intl.NumberFormat(lang === "ar" ? "ar-KW-u-nu-latn" : "en-KW", {
      style: "currency",
      currency,
      currencyDisplay: lang === "ar" ? "symbol" : "code",
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    formatters.set(key, formatter);
  }
  // Formatting the decimal string keeps it exact: no division, no float.
  return formatter.format(toDecimalString(minor, currency) as unknown as number);
}

export type FeeRule = { fixed: number; basisPoints: number };

/**
 * fixed + amount × basisPoints / 10 000, rounded half-up to the minor unit.
 * 1 basis point = 0.01 %. Integer arithmetic only.
 */
export function computeFee(amount: number, rule: FeeRule): number {
  assertMinor(amount);
  assertMinor(rule.fixed);
  if (!Number.isSafeInteger(rule.basisPoints) || rule.basisPoints < 0)
    throw new RangeError("basisPoints must be a non-negative integer");
  const product = BigInt(amount) * BigInt(rule.basisPoints);
  const percentage = (product + 5000n) / 10000n;
  return rule.fixed + Number(percentage);
}

/**
 * What the customer pays and what the merchant keeps. A customer-paid fee is added on top;
 * a merchant-paid fee comes out of the amount. Always: fee + net = gross.
 */
export function priceWithFee(amount: number, rule: FeeRule, payer: "customer" | "merchant") {
  const fee = computeFee(amount, rule);
  const gross = payer === "customer" ? amount + fee : amount;
  return { gross, fee, net: gross - fee };
}

function assertMinor(value: number) {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Money must be a safe integer of minor units, got ${value}`);
}
