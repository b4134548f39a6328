/**
 * The card acquirer's notification signature: hex HMAC-SHA256 of "<unix seconds>.<raw body>"
 * with the merchant's webhook secret. Signing the timestamp with the body lets the receiver
 * refuse replays of an old, validly signed message.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const CARD_TIMESTAMP_HEADER = "X-Sandbox-Timestamp";
export const CARD_SIGNATURE_HEADER = "X-Sandbox-Signature";

export function signCardPayload(secret: string, timestamp: number | string, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "malformed" | "stale" | "mismatch" };

export function verifyCardSignature(
  secret: string,
  timestamp: string | null | undefined,
  rawBody: string,
  signature: string | null | undefined,
  nowSeconds: number,
  toleranceSeconds = 300,
): SignatureCheck {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature || !/^[0-9a-fA-F]{64}$/.test(signature)) {
    return { ok: false, reason: "malformed" };
  }
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: "stale" };
  const expected = Buffer.from(signCardPayload(secret, timestamp, rawBody), "hex");
  const given = Buffer.from(signature, "hex");
  return timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: "mismatch" };
}
