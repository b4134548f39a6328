import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import { DateTime } from "luxon";
import { DISPLAY_ZONE } from "~/lib/format";

/**
 * How a payment request's customer phone and expiry are read, wherever a request is made (the
 * create page, the API, a bulk upload's rows).
 */

/** "+96550001234" for a phone typed with or without its country code; undefined when not a valid number. */
export function normalizePhone(value: string, country: string | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(value, ((country ?? "KW").toUpperCase() as CountryCode) || "KW");
  return parsed?.isValid() ? parsed.number : undefined;
}

/** A datetime-local value is Kuwait time; a value with an offset or Z is taken as written. */
export function parseExpiration(value: string): Date | undefined {
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value);
  const parsed = hasZone ? DateTime.fromISO(value, { setZone: true }) : DateTime.fromISO(value, { zone: DISPLAY_ZONE });
  return parsed.isValid ? parsed.toJSDate() : undefined;
}
