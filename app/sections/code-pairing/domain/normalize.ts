/**
 * How codes and paired values are read: what a customer types on a phone (spaces, dashes, lower
 * case, Arabic-Indic digits) reads the same as what the merchant issued.
 */

/** Letters and digits no one misreads (no 0/O, 1/I/L, 5/S, 8/B, 2/Z): generated codes use only these. */
export const CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY";
export const GENERATED_CODE_LENGTH = 10;
export const CODE_MIN = 4;
export const CODE_MAX = 32;
export const PAIR_MAX = 64;

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

function westernDigits(text: string) {
  return text.replace(ARABIC_DIGITS, (digit) => String((digit.charCodeAt(0) & 0xf) % 10));
}

/** A code as stored and compared: upper case, without spaces or dashes. */
export function normalizeCode(text: string): string {
  return westernDigits(text.normalize("NFKC"))
    .replace(/[\s\-_.]+/g, "")
    .toUpperCase();
}

export function isValidCode(code: string) {
  return code.length >= CODE_MIN && code.length <= CODE_MAX && /^[A-Z0-9]+$/.test(code);
}

/** A paired value as compared: Western digits, no spaces or dashes, case ignored. */
export function normalizePair(text: string): string {
  return westernDigits(text.normalize("NFKC"))
    .replace(/[\s\-_./]+/g, "")
    .toUpperCase();
}

/**
 * A paired value as staff see it unless they may reveal it: its last four characters (fewer for a
 * short value, never all of it) behind a mask of fixed width, so neither the value nor its length shows.
 */
export function maskPair(pair: string): string {
  const shown = Math.min(4, Math.floor(pair.length / 2));
  return `••••${shown ? pair.slice(-shown) : ""}`;
}

/** A generated code shown in two groups of five (ABCDE-FGHJK); typed with or without the dash. */
export function displayCode(code: string) {
  return code.length === GENERATED_CODE_LENGTH ? `${code.slice(0, 5)}-${code.slice(5)}` : code;
}
export const LABEL_MAX = 60;
