import { randomInt } from "node:crypto";
import type { DB } from "~/db/database.server";
import { fulfilmentCode, readFulfilmentCode, type FulfilmentCodeKind } from "~/domain/commerce/fulfilment-codes.server";

/** Letters and digits people do not mix up when they read a ticket aloud or type it (no 0/O, 1/I/L). */
const NUMBER_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const NUMBER_LENGTH = 10;

/** A place's number: 10 characters of 31 (49 bits), unguessable, short enough to type at the door. */
export function newMemberNumber(): string {
  let number = "";
  for (let index = 0; index < NUMBER_LENGTH; index++) number += NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)];
  return number;
}

/** A number as staff may type it: spaces, dashes and lower case forgiven. */
export function normalizeMemberNumber(typed: string): string {
  return typed.replace(/[\s-]/g, "").toUpperCase();
}

/** A place's QR code: its event and number (decision 0023), in the commerce floor's one format. */
const TICKET_CODE: FulfilmentCodeKind = { prefix: "EVT1", purpose: "event-ticket", fields: 2 };

/** What a place's QR code holds: the event, the number and a signature only the platform can make. */
export function qrContentOf(db: DB, eventId: number, number: string): Promise<string> {
  return fulfilmentCode(db, TICKET_CODE, [eventId, number]);
}

export type ReadCode =
  { kind: "qr"; eventId: number; number: string } | { kind: "typed"; number: string } | { kind: "forged" };

/**
 * What staff scanned or typed: a ticket's QR code (its signature checked) or a place's number. A
 * ticket's code with a wrong signature, or another kind's code (a food order's), is forged.
 */
export async function readCode(db: DB, code: string): Promise<ReadCode> {
  const read = await readFulfilmentCode(db, TICKET_CODE, code);
  if (read.kind === "typed") return { kind: "typed", number: normalizeMemberNumber(read.text) };
  if (read.kind === "refused") return { kind: "forged" };
  const [event, number] = read.fields;
  return /^\d{1,10}$/.test(event) ? { kind: "qr", eventId: Number(event), number } : { kind: "forged" };
}
