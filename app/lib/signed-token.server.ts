import type { DB } from "~/db/database.server";
import { hmacSha256, randomToken, safeEqual } from "./crypto.server";
import { getAppSecret } from "./secret.server";

/*
 * A random token a visitor's browser keeps, signed so that a value the server did not hand out is
 * refused before anything is looked up: `<token>.<signature>`, the signature 16 bytes of an HMAC
 * under the app's secret. `purpose` ("food-cart") keys the HMAC, so a token signed for one use is
 * worth nothing for another; it must never change once cookies carry it.
 */

/** The first `bytes` of an HMAC of `text` under the app's secret, keyed by `purpose`, in base64url. */
export async function signText(db: DB, purpose: string, text: string, bytes = 16) {
  const secret = await getAppSecret(db);
  return Buffer.from(hmacSha256(`${purpose}:${secret}`, text), "hex")
    .subarray(0, bytes)
    .toString("base64url");
}

/** A new token and its signed form (what the cookie holds). */
export async function newSignedToken(db: DB, purpose: string) {
  const token = randomToken(24);
  return { token, signed: `${token}.${await signText(db, purpose, token)}` };
}

/** The token a signed value names, if the signature is ours for this purpose. */
export async function verifySignedToken(db: DB, purpose: string, signed: string | null): Promise<string | null> {
  const match = /^([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{22})$/.exec(signed ?? "");
  if (!match) return null;
  return safeEqual(match[2], await signText(db, purpose, match[1])) ? match[1] : null;
}
