import type { DB } from "~/db/database.server";
import { safeEqual } from "~/lib/crypto.server";
import { signText } from "~/lib/signed-token.server";

/**
 * What a QR code that hands something over holds (a place at an event's door, a food order at the
 * counter), one format for every section: `<prefix>.<field>….<signature>`, the signature 96 bits of
 * an HMAC of the fields (joined by dots) under the app's secret. A section names its kind: the
 * prefix says what a code is about and the purpose keys its signature, so a code made for one kind
 * is worth nothing as another, even with the same fields.
 *
 * Tickets (`EVT1.<event>.<number>.<sig>`, decision 0023) and food orders (`FOOD1.<order>.<sig>`) were
 * printed in exactly this format before it was shared: every code ever printed still reads, with
 * no second reader to keep. A new format would take a new prefix, never a new meaning for an old one.
 */
export type FulfilmentCodeKind = {
  /** Letters then a version digit ("EVT1"): never reused for another meaning. */
  prefix: string;
  /** Keys the signature; it must never change once codes are printed. */
  purpose: string;
  /** How many fields the code carries between its prefix and its signature. */
  fields: number;
};

const SIGNATURE_BYTES = 12;
const FIELD = /^[A-Za-z0-9_-]{1,64}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{16}$/;
/** The shape of any kind's code, told apart from a number staff type at the door. */
const ANY_KIND = /^[A-Z]+\d+(\.[A-Za-z0-9_-]+)+$/;

/** The code of one thing of `kind`: its fields (ids, numbers) and the platform's signature. */
export async function fulfilmentCode(
  db: DB,
  kind: FulfilmentCodeKind,
  fields: readonly (string | number)[],
): Promise<string> {
  const values = fields.map(String);
  if (values.length !== kind.fields || !values.every((value) => FIELD.test(value)))
    throw new Error(`A ${kind.prefix} code takes ${kind.fields} fields of letters and digits`);
  const signed = values.join(".");
  return `${kind.prefix}.${signed}.${await signText(db, kind.purpose, signed, SIGNATURE_BYTES)}`;
}

export type ReadFulfilmentCode =
  /** A code of this kind that the platform signed: its fields, as they were signed. */
  | { kind: "signed"; fields: string[] }
  /** Not a code at all: what staff typed (a number), for the section to look up if it takes typed numbers. */
  | { kind: "typed"; text: string }
  /** A code of this kind with a wrong signature or shape, or a code of another kind. */
  | { kind: "refused" };

/** What a scanned or typed code is, for a door that takes codes of `kind`. */
export async function readFulfilmentCode(db: DB, kind: FulfilmentCodeKind, code: string): Promise<ReadFulfilmentCode> {
  const text = code.trim();
  const parts = text.split(".");
  if (parts[0] !== kind.prefix) return ANY_KIND.test(text) ? { kind: "refused" } : { kind: "typed", text };
  const fields = parts.slice(1, -1);
  const signature = parts[parts.length - 1];
  if (fields.length !== kind.fields || !fields.every((field) => FIELD.test(field)) || !SIGNATURE.test(signature))
    return { kind: "refused" };
  const expected = await signText(db, kind.purpose, fields.join("."), SIGNATURE_BYTES);
  return safeEqual(signature, expected) ? { kind: "signed", fields } : { kind: "refused" };
}
