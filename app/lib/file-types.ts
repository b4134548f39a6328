/**
 * File types told by their first bytes, never by a name or a browser's word: what an upload is
 * taken as, and served as again.
 */
export type SniffedType = { type: string; extension: string; matches: (bytes: Uint8Array) => boolean };

function startsWith(bytes: Uint8Array, signature: number[]) {
  return signature.every((byte, index) => bytes[index] === byte);
}

export const PDF: SniffedType = {
  type: "application/pdf",
  extension: "pdf",
  matches: (bytes) => startsWith(bytes, [0x25, 0x50, 0x44, 0x46]),
};
export const PNG: SniffedType = {
  type: "image/png",
  extension: "png",
  matches: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
};
export const JPEG: SniffedType = {
  type: "image/jpeg",
  extension: "jpg",
  matches: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]),
};
export const WEBP: SniffedType = {
  type: "image/webp",
  extension: "webp",
  matches: (bytes) =>
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP",
};
export const ICO: SniffedType = {
  type: "image/x-icon",
  extension: "ico",
  matches: (bytes) => startsWith(bytes, [0x00, 0x00, 0x01, 0x00]),
};

/** The first of `types` the bytes are, if any. */
export function sniff(bytes: Uint8Array, types: readonly SniffedType[]) {
  return types.find((candidate) => candidate.matches(bytes));
}

/** The most a picture may measure: a side and an area a browser decodes without trouble. */
export const PICTURE_MAX_SIDE = 8000;
export const PICTURE_MAX_PIXELS = 40_000_000;

export type PictureSize = { width: number; height: number };

function uint16BE(bytes: Uint8Array, at: number) {
  return at + 2 <= bytes.length ? (bytes[at] << 8) | bytes[at + 1] : -1;
}

function uint32BE(bytes: Uint8Array, at: number) {
  return at + 4 <= bytes.length
    ? bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3])
    : -1;
}

function uint24LE(bytes: Uint8Array, at: number) {
  return at + 3 <= bytes.length ? bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) : -1;
}

function ascii(bytes: Uint8Array, at: number, length: number) {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function pngSize(bytes: Uint8Array, at = 0): PictureSize | null {
  if (ascii(bytes, at + 12, 4) !== "IHDR") return null;
  const width = uint32BE(bytes, at + 16);
  const height = uint32BE(bytes, at + 20);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The frame header (SOF0–SOF15 but DHT, JPG and DAC) gives the size; markers are walked by their lengths. */
function jpegSize(bytes: Uint8Array): PictureSize | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = uint16BE(bytes, at + 2);
    if (length < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = uint16BE(bytes, at + 5);
      const width = uint16BE(bytes, at + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    at += 2 + length;
  }
  return null;
}

function gifSize(bytes: Uint8Array): PictureSize | null {
  if (bytes.length < 10) return null;
  const width = bytes[6] | (bytes[7] << 8);
  const height = bytes[8] | (bytes[9] << 8);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** WebP's first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X, the canvas). */
function webpSize(bytes: Uint8Array): PictureSize | null {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 ") {
    if (bytes.length < 30 || bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: (bytes[26] | (bytes[27] << 8)) & 0x3fff, height: (bytes[28] | (bytes[29] << 8)) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (bytes.length < 25 || bytes[20] !== 0x2f) return null;
    const bits = (bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const width = uint24LE(bytes, 24);
    const height = uint24LE(bytes, 27);
    return width < 0 || height < 0 ? null : { width: width + 1, height: height + 1 };
  }
  return null;
}

/** An icon's largest image: an entry may hold a whole PNG, whose own header is the one a browser believes. */
function icoSize(bytes: Uint8Array): PictureSize | null {
  const count = bytes.length >= 6 ? bytes[4] | (bytes[5] << 8) : 0;
  if (count === 0) return null;
  let largest: PictureSize | null = null;
  for (let index = 0; index < count; index++) {
    const entry = 6 + index * 16;
    if (entry + 16 > bytes.length) return null;
    const offset =
      (bytes[entry + 12] | (bytes[entry + 13] << 8) | (bytes[entry + 14] << 16) | (bytes[entry + 15] << 24)) >>> 0;
    const embedded = PNG.matches(bytes.subarray(offset))
      ? pngSize(bytes, offset)
      : { width: bytes[entry] || 256, height: bytes[entry + 1] || 256 };
    if (!embedded) return null;
    if (!largest || embedded.width * embedded.height > largest.width * largest.height) largest = embedded;
  }
  return largest;
}

/** A picture's size as its header says (PNG, JPEG, GIF, WebP, ICO), or null when the header cannot be read. */
export function pictureSize(bytes: Uint8Array): PictureSize | null {
  if (PNG.matches(bytes)) return pngSize(bytes);
  if (JPEG.matches(bytes)) return jpegSize(bytes);
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return gifSize(bytes);
  if (WEBP.matches(bytes)) return webpSize(bytes);
  if (ICO.matches(bytes)) return icoSize(bytes);
  return null;
}

/**
 * An uploaded picture checked before it is kept: one of `types` by its first bytes (so never an SVG or
 * an HTML page, which can carry scripts), with a header that can be read, and no larger than
 * PICTURE_MAX_SIDE a side and PICTURE_MAX_PIXELS in all (a tiny file can claim a size that takes
 * gigabytes to decode).
 */
export function checkPicture(
  bytes: Uint8Array,
  types: readonly SniffedType[],
): { ok: true; type: SniffedType; size: PictureSize } | { ok: false; reason: "type" | "dimensions" } {
  const type = sniff(bytes, types);
  if (!type) return { ok: false, reason: "type" };
  const size = pictureSize(bytes);
  if (!size) return { ok: false, reason: "type" };
  if (size.width > PICTURE_MAX_SIDE || size.height > PICTURE_MAX_SIDE || size.width * size.height > PICTURE_MAX_PIXELS)
    return { ok: false, reason: "dimensions" };
  return { ok: true, type, size };
}
