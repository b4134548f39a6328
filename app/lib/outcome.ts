/**
 * What a domain function answers when it refuses: a stable code — which is also the translation
 * key of its message — the field it concerns, and the values the message needs. The domain never
 * chooses an HTTP status or words; each adapter (page, API, worker) maps the code to those.
 */

/** An amount of money in a message, written out in the reader's language by the adapter. */
export type MoneyParam = { minor: number; currency: string };

/** A word the reader's language has for a code (a state, a kind): a translation key. */
export type WordParam = { word: string; otherwise?: string };

/** A name the platform keeps in both languages (a gateway's, a field's): the reader's is shown. */
export type NameParam = { en: string; ar: string };

/** Several words or names, joined the reader's way ("a, b" / "a، b"). */
export type ListParam = { list: (string | WordParam | NameParam)[] };

export type TextParams = Record<
  string,
  string | number | MoneyParam | WordParam | NameParam | ListParam | null | undefined
>;

export type Refusal = { ok: false; code: string; field?: string; params?: TextParams };

export function refuse(code: string, extra: { field?: string; params?: TextParams } = {}): Refusal {
  return { ok: false, code, ...extra };
}

export function money(minor: number, currency: string): MoneyParam {
  return { minor, currency };
}

export function word(key: string, otherwise?: string): WordParam {
  return otherwise === undefined ? { word: key } : { word: key, otherwise };
}

export function named(en: string, ar: string): NameParam {
  return { en, ar };
}

export function list(items: ListParam["list"]): ListParam {
  return { list: items };
}

export function isNameParam(value: unknown): value is NameParam {
  return typeof value === "object" && value !== null && "en" in value && "ar" in value;
}

export function isListParam(value: unknown): value is ListParam {
  return typeof value === "object" && value !== null && "list" in value && Array.isArray((value as ListParam).list);
}

export function isMoneyParam(value: unknown): value is MoneyParam {
  return typeof value === "object" && value !== null && "minor" in value && "currency" in value;
}

export function isWordParam(value: unknown): value is WordParam {
  return typeof value === "object" && value !== null && "word" in value;
}
