/**
 * KNET's wire format, shared by the platform's adapter and the sandbox that stands in for KNET:
 * a "k=v&k=v" parameter string, encrypted with AES-128-CBC where the terminal's 16-character
 * resource key is both the key and the IV, PKCS#5 padded, hex-encoded (lowercase out, either case in).
 */
import { createCipheriv, createDecipheriv } from "node:crypto";

export const KNET_CURRENCY_KWD = "414";

export const KNET_ACTIONS = {
  purchase: "1",
  refund: "2",
  authorization: "4",
  inquiry: "8",
} as const;

export type KnetParams = Record<string, string>;

function keyBytes(resourceKey: string): Buffer {
  const key = Buffer.from(resourceKey, "utf8");
  if (key.length !== 16) throw new Error("A KNET resource key is 16 characters long");
  return key;
}

export function encryptTrandata(plain: string, resourceKey: string): string {
  const key = keyBytes(resourceKey);
  const cipher = createCipheriv("aes-128-cbc", key, key);
  return Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]).toString("hex");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Throws on anything that is not a whole number of hex-encoded blocks decrypting to valid UTF-8. */
export function decryptTrandata(hex: string, resourceKey: string): string {
  if (!/^(?:[0-9a-fA-F]{32})+$/.test(hex)) throw new Error("trandata is not hex-encoded AES blocks");
  const key = keyBytes(resourceKey);
  const decipher = createDecipheriv("aes-128-cbc", key, key);
  // A wrong key almost always breaks the padding; when it does not, the text is rarely valid UTF-8.
  const plain = Buffer.concat([decipher.update(Buffer.from(hex, "hex")), decipher.final()]);
  return strictUtf8.decode(plain);
}

export function buildParams(record: KnetParams): string {
  return Object.entries(record)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join("&");
}

export function parseParams(text: string): KnetParams {
  return Object.fromEntries(new URLSearchParams(text));
}

export function encryptParams(record: KnetParams, resourceKey: string): string {
  return encryptTrandata(buildParams(record), resourceKey);
}

export function decryptParams(hex: string, resourceKey: string): KnetParams {
  return parseParams(decryptTrandata(hex, resourceKey));
}
