import { randomBytes, randomInt } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** An id for a public URL: 22 base-62 characters, about 131 random bits, unguessable. */
export function publicId(): string {
  const bytes = randomBytes(22);
  let id = "";
  // 256 is not a multiple of 62; rejecting the top values keeps every character equally likely.
  for (let index = 0; id.length < 22; index++) {
    const byte = index < bytes.length ? bytes[index] : randomBytes(1)[0];
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
}

/** Our reference for one attempt at a gateway (KNET's trackid): 18 digits, unique. */
export function newTrackId(): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < 18) digits += String(randomInt(0, 10));
  return digits;
}
