import { hmacSha256, randomToken, safeEqual } from "~/lib/crypto.server";

/**
 * A browser that has signed in as a user before carries a device token (OWASP's "device cookies"):
 * `<user id>.<nonce>.<signature>`, signed with the platform's secret so that nobody makes one without
 * signing in. It lets that browser past the per-username limit that others' wrong guesses fill.
 */
export type DeviceToken = { userId: number; nonce: string };

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([0-9a-f]{64})$/;

function signatureOf(secret: string, userId: number, nonce: string) {
  return hmacSha256(secret, `device\n${userId}\n${nonce}`);
}

/** A fresh token for a browser that just signed in as this user. */
export function issueDeviceToken(secret: string, userId: number): string {
  const nonce = randomToken(16);
  return `${userId}.${nonce}.${signatureOf(secret, userId, nonce)}`;
}

/** The token's user and nonce, or null for anything we did not sign. */
export function readDeviceToken(secret: string, value: string | null): DeviceToken | null {
  const match = value ? TOKEN.exec(value) : null;
  if (!match) return null;
  const userId = Number(match[1]);
  return safeEqual(signatureOf(secret, userId, match[2]), match[3]) ? { userId, nonce: match[2] } : null;
}
