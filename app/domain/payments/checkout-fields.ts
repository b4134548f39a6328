import type { CheckoutValidator } from "~/db/schema";
import type { TextParams } from "~/lib/outcome";

/**
 * Checkout fields without the database: how a merchant's field is described and checked, and how a
 * customer's values are checked against the fields. Codes are translation keys (checkout_fields.*
 * and api.*); the adapters write them out.
 */

export const CHECKOUT_VALIDATORS = [
  "text",
  "email",
  "phone",
  "digits",
  "civil_id",
  "number",
] as const satisfies readonly CheckoutValidator[];

/** The longest value a field may allow. */
export const MAX_FIELD_LENGTH = 256;
const MAX_LABEL_LENGTH = 100;
const NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
/**
 * Names a field may not take: a name every object has, and what the transaction's details and list
 * already call rows and columns of their own (two rows of one name in the API's `details` would be
 * one too many). A test holds this list to the transaction list's columns (fields.server).
 */
const RESERVED_NAMES = new Set([
  "constructor",
  "id",
  "extra",
  "details",
  "unit",
  "remarks",
  "attachment",
  "order_no",
  "created",
  "amount",
  "paid_amount",
  "fee",
  "refunded_amount",
  "currency_code",
  "state",
  "gateway_name",
  "initiator",
  "description",
  "state_changed_at",
  "expiration_time",
  "product_type",
  "auth_code",
  "card_type",
  "ref_number",
]);
export const isReservedName = (name: string) =>
  RESERVED_NAMES.has(name) || name.startsWith("delivery") || name.startsWith("customer_");

/** A value of this kind cannot be shorter than this: a field allowing less could never be filled in. */
const SHORTEST: Partial<Record<CheckoutValidator, number>> = { civil_id: 12, phone: 8 };

/** The length a new field allows when none is given. */
function defaultMaxLength(validator: CheckoutValidator) {
  return validator === "civil_id" ? 12 : validator === "phone" ? 16 : 100;
}

export function isCheckoutValidator(value: unknown): value is CheckoutValidator {
  return typeof value === "string" && (CHECKOUT_VALIDATORS as readonly string[]).includes(value);
}

/** What the pay page and the pay API need of a field. */
export type CheckoutFieldRule = {
  name: string;
  validator: CheckoutValidator;
  required: boolean | number;
  max_length: number;
};

export type ValueError = { code: string; params?: TextParams };

/** Arabic-Indic and Persian digits as typed on Arabic keyboards, and the Arabic decimal separator, as ASCII. */
function asciiDigits(value: string) {
  return value
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, ".");
}

/**
 * A Kuwaiti civil ID: 12 digits, the last a check digit over the first 11 (weights 2 1 6 3 7 9 10
 * 5 8 4 2; check = 11 − sum mod 11). A sum that leaves 0 or 1 gives no digit: no such ID is issued.
 */
export function isValidCivilId(value: string) {
  if (!/^\d{12}$/.test(value)) return false;
  const weights = [2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((total, weight, index) => total + weight * Number(value[index]), 0);
  return 11 - (sum % 11) === Number(value[11]);
}

/**
 * One value, checked by its field: the value as stored (trimmed, digits in ASCII, a phone or civil
 * ID without spaces; its length is the field's at most), `null` for an empty optional field, or
 * why it is refused.
 */
export function checkValue(
  field: CheckoutFieldRule,
  raw: unknown,
): { ok: true; value: string | null } | { ok: false; error: ValueError } {
  if (raw !== undefined && raw !== null && typeof raw !== "string" && typeof raw !== "number")
    return { ok: false, error: { code: "checkout_fields.errors.invalid" } };
  // Control characters (a pasted line break) are spaces.
  const text = String(raw ?? "")
    // eslint-disable-next-line no-control-regex -- control characters are what is being replaced
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim();
  if (!text)
    return field.required
      ? { ok: false, error: { code: "checkout_fields.errors.required" } }
      : { ok: true, value: null };
  const normalised = normalise(field.validator, text);
  if (!normalised.ok) return normalised;
  if (Array.from(normalised.value).length > field.max_length)
    return { ok: false, error: { code: "checkout_fields.errors.too_long", params: { max: field.max_length } } };
  return normalised;
}

/** A value as its kind is stored, or why it is not of that kind. */
function normalise(
  validator: CheckoutValidator,
  text: string,
): { ok: true; value: string } | { ok: false; error: ValueError } {
  switch (validator) {
    case "text":
      return { ok: true, value: text };
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)
        ? { ok: true, value: text }
        : { ok: false, error: { code: "checkout_fields.errors.email" } };
    case "phone": {
      const compact = asciiDigits(text).replace(/[\s\-().]/g, "");
      // A Kuwaiti number of 8 digits, or any number with its country code.
      return /^\d{8}$/.test(compact) || /^\+\d{8,15}$/.test(compact)
        ? { ok: true, value: compact }
        : { ok: false, error: { code: "checkout_fields.errors.phone" } };
    }
    case "digits": {
      const digits = asciiDigits(text);
      return /^\d+$/.test(digits)
        ? { ok: true, value: digits }
        : { ok: false, error: { code: "checkout_fields.errors.digits" } };
    }
    case "civil_id": {
      const digits = asciiDigits(text).replace(/[\s-]/g, "");
      return isValidCivilId(digits)
        ? { ok: true, value: digits }
        : { ok: false, error: { code: "checkout_fields.errors.civil_id" } };
    }
    case "number": {
      const number = asciiDigits(text);
      return /^[+-]?\d+(\.\d+)?$/.test(number)
        ? { ok: true, value: number }
        : { ok: false, error: { code: "checkout_fields.errors.number" } };
    }
  }
}

export type CheckedValues =
  | {
      ok: true;
      /** The values to store, by field name. */
      values: Record<string, string>;
      /** Optional fields sent empty: a value stored before is taken away. */
      cleared: string[];
    }
  | { ok: false; errors: Record<string, ValueError[]> };

/**
 * A customer's values for the active fields. `refuseUnknown` (the API) refuses a name that is no
 * active field; a page reads only the fields it shows.
 */
export function checkValues(
  fields: readonly CheckoutFieldRule[],
  input: Record<string, unknown>,
  options: { refuseUnknown: boolean },
): CheckedValues {
  // Keyed by what a customer sends: objects without a prototype, so no name ("__proto__") is special.
  const errors: Record<string, ValueError[]> = Object.create(null);
  const values: Record<string, string> = Object.create(null);
  const cleared: string[] = [];
  if (options.refuseUnknown) {
    const known = new Set(fields.map((field) => field.name));
    for (const name of Object.keys(input))
      if (!known.has(name)) errors[name] = [{ code: "checkout_fields.errors.unknown" }];
  }
  for (const field of fields) {
    const checked = checkValue(field, Object.hasOwn(input, field.name) ? input[field.name] : undefined);
    if (!checked.ok) errors[field.name] = [checked.error];
    else if (checked.value === null) cleared.push(field.name);
    else values[field.name] = checked.value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values, cleared };
}

/** A field as the merchant describes it. */
export type CheckoutFieldSettings = {
  name: string;
  label_en: string;
  label_ar: string;
  placeholder_en: string | null;
  placeholder_ar: string | null;
  validator: CheckoutValidator;
  required: boolean;
  max_length: number;
  is_active: boolean;
  /** 1 is first. */
  position: number;
};

export type FieldChanges = Partial<CheckoutFieldSettings>;

const TRUE_WORDS = ["on", "true", "1"];
const EDITABLE = [
  "name",
  "label_en",
  "label_ar",
  "placeholder_en",
  "placeholder_ar",
  "validator",
  "required",
  "max_length",
  "is_active",
  "position",
] as const;

/**
 * Checks a new field (`current` undefined) or changes to one. `json` is the API's body (only what
 * it sends changes; other names are refused); `form` a page's (all the form's fields are sent, an
 * unticked box is off, and it never sends the order or the state: they have buttons of their own).
 */
export function checkFieldSettings(
  input: Record<string, unknown>,
  from: "json" | "form",
  current?: CheckoutFieldSettings,
): { ok: true; changes: FieldChanges } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const changes: FieldChanges = {};
  const sent = (name: string) => name in input && input[name] !== undefined;
  if (from === "json")
    for (const name of Object.keys(input))
      if (!(EDITABLE as readonly string[]).includes(name)) errors[name] = ["api.read_only_field"];
  const text = (name: string) => {
    const value = input[name];
    return typeof value === "string" ? value.trim() : value === null ? "" : undefined;
  };

  if (!current) {
    const name = text("name");
    if (!name || !NAME_PATTERN.test(name)) errors.name = ["checkout_fields.errors.name"];
    else if (isReservedName(name)) errors.name = ["checkout_fields.errors.name_reserved"];
    else changes.name = name;
  } else if (sent("name") && input.name !== current.name) errors.name = ["checkout_fields.errors.name_fixed"];

  for (const field of ["label_en", "label_ar"] as const) {
    if (!sent(field) && current) continue;
    const value = text(field);
    if (!value || Array.from(value).length > MAX_LABEL_LENGTH) errors[field] = ["checkout_fields.errors.label"];
    else changes[field] = value;
  }
  for (const field of ["placeholder_en", "placeholder_ar"] as const) {
    if (!sent(field)) continue;
    const value = text(field);
    if (value === undefined || Array.from(value).length > MAX_LABEL_LENGTH)
      errors[field] = ["checkout_fields.errors.placeholder"];
    else changes[field] = value || null;
  }
  if (sent("validator") || !current) {
    const value = input.validator ?? "text";
    if (!isCheckoutValidator(value)) errors.validator = ["api.invalid_choice"];
    else changes.validator = value;
  }
  const flag = (name: "required" | "is_active") => {
    const value = from === "form" ? sent(name) && TRUE_WORDS.includes(String(input[name])) : input[name];
    if (typeof value !== "boolean") errors[name] = ["api.invalid_boolean"];
    else changes[name] = value;
  };
  if (from === "form" || sent("required")) flag("required");
  if (from === "json" && sent("is_active")) flag("is_active");

  const whole = (name: string) => {
    const value = input[name];
    const digits = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
    return /^\d{1,4}$/.test(digits) ? Number(digits) : null;
  };
  if (sent("max_length") && !(from === "form" && text("max_length") === "")) {
    const value = whole("max_length");
    if (value === null || value < 1 || value > MAX_FIELD_LENGTH)
      errors.max_length = ["checkout_fields.errors.max_length"];
    else changes.max_length = value;
  }
  const validator = changes.validator ?? current?.validator ?? "text";
  if (!current && changes.max_length === undefined) changes.max_length = defaultMaxLength(validator);
  const maxLength = changes.max_length ?? current?.max_length;
  const shortest = SHORTEST[validator];
  if (!errors.max_length && !errors.validator && shortest && maxLength !== undefined && maxLength < shortest) {
    errors.max_length = ["checkout_fields.errors.max_length_validator"];
  }
  if (from === "json" && sent("position")) {
    const value = whole("position");
    if (value === null || value < 1) errors.position = ["checkout_fields.errors.position"];
    else changes.position = value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, changes };
}
