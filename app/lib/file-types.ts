/**
 * File types told by their first bytes, never by a name or a browser's word: what an upload is
 * taken as, and served as again.
 */
export type SniffedType = { type: string; extension: string; matches: (bytes: Uint8Array) => boolean };

function startsWith(bytes: Uint8Array, signature: number[]) {
  return signature.every((byte, index) => bytes[index] === byte);
}

export const PDF: SniffedType = { type: "application/pdf", extension: "pdf", matches: (bytes) => startsWith(bytes, [0x25, 0x50, 0x44, 0x46]) };
export const PNG: SniffedType = { type: "image/png", extension: "png", matches: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) };
export const JPEG: SniffedType = { type: "image/jpeg", extension: "jpg", matches: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]) };
export const WEBP: SniffedType = {
  type: "image/webp",
  extension: "webp",
  matches: (bytes) => startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP",
};
export const ICO: SniffedType = { type: "image/x-icon", extension: "ico", matches: (bytes) => startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) };

/** The first of `types` the bytes are, if any. */
export function sniff(bytes: Uint8Array, types: readonly SniffedType[]) {
  return types.find((candidate) => candidate.matches(bytes));
}
