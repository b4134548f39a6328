import { hmacSha256, randomToken, safeEqual } from "~/lib/crypto.server";

/**
 * A browser that has signed in as a user before carries a device token (OWASP's "device cookies"):
 * `<user id>.<nonce>.<signature>`, signed with the platform's secret so that nobody makes one without
 * signing in. It lets that browser past the per-username limit that others' wrong guesses fill.
 * The signature covers the user's current password hash, so a new password (changed or reset)
 * ends every token issued before it: a browser that knew the old one is a stranger again.
 */
export type DeviceToken = { userId: number; nonce: string };

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([0-9a-f]{64})$/;

function signatureOf(secret: string, userId: number, nonce: string, passwordHash: string) {
  return hmacSha256(secret, `device\n${userId}\n${nonce}\n${passwordHash}`);
}

/** A fresh token for a browser that just signed in as this user (with the password they have now). */
export function issueDeviceToken(secret: string, user: { id: number; password_hash: string }): string {
  const nonce = randomToken(16);
  return `${user.id}.${nonce}.${signatureOf(secret, user.id, nonce, user.password_hash)}`;
}

/** The token's nonce when we signed it for this user and their current password; null for anything else. */
export function readDeviceToken(
  secret: string,
  value: string | null,
  user: { id: number; password_hash: string },
): DeviceToken | null {
  const match = value ? TOKEN.exec(value) : null;
  if (!match || Number(match[1]) !== user.id) return null;
  return safeEqual(signatureOf(secret, user.id, match[2], user.password_hash), match[3])
    ? { userId: user.id, nonce: match[2] }
    : null;
}
