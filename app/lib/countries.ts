/**
 * The countries a merchant may name as its own and a customer's phone may belong to: Kuwait, its
 * neighbours, and the countries most of its residents come from. ISO 3166-1 alpha-2.
 */
export const COUNTRIES = ["KW", "SA", "AE", "QA", "BH", "OM", "EG", "JO", "LB", "IN", "PK", "PH", "GB", "US"] as const;
export type CountryCode = (typeof COUNTRIES)[number];

export function isCountry(value: unknown): value is CountryCode {
  return typeof value === "string" && (COUNTRIES as readonly string[]).includes(value);
}

/** A country's name in the reader's language ("Kuwait", "الكويت"). */
export function countryName(code: string, lang: "en" | "ar") {
  return new Intl.DisplayNames([lang], { type: "region" }).of(code) ?? code;
}
