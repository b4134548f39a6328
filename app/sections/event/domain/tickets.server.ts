import { randomInt } from "node:crypto";
import type { DB } from "~/db/database.server";
import { hmacSha256, safeEqual } from "~/lib/crypto.server";
import { getAppSecret } from "~/lib/secret.server";

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

const QR_PREFIX = "EVT1";

async function signatureOf(db: DB, eventId: number, number: string) {
  const secret = await getAppSecret(db);
  // 96 bits of an HMAC: a forged ticket must guess them.
  return Buffer.from(hmacSha256(`event-ticket:${secret}`, `${eventId}.${number}`), "hex")
    .subarray(0, 12)
    .toString("base64url");
}

/** What a place's QR code holds: the event, the number and a signature only the platform can make. */
export async function qrContentOf(db: DB, eventId: number, number: string): Promise<string> {
  return `${QR_PREFIX}.${eventId}.${number}.${await signatureOf(db, eventId, number)}`;
}

export type ReadCode =
  { kind: "qr"; eventId: number; number: string } | { kind: "typed"; number: string } | { kind: "forged" };

/**
 * What staff scanned or typed: a QR code (its signature checked) or a place's number. A QR code with
 * a wrong signature is forged, whatever its number.
 */
export async function readCode(db: DB, code: string): Promise<ReadCode> {
  const trimmed = code.trim();
  if (trimmed.startsWith(`${QR_PREFIX}.`)) {
    const [, event, number, signature] = trimmed.split(".");
    const eventId = /^\d{1,10}$/.test(event ?? "") ? Number(event) : Number.NaN;
    if (!Number.isInteger(eventId) || !number || !signature) return { kind: "forged" };
    if (!safeEqual(signature, await signatureOf(db, eventId, number))) return { kind: "forged" };
    return { kind: "qr", eventId, number };
  }
  return { kind: "typed", number: normalizeMemberNumber(trimmed) };
}
