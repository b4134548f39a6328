import { describe, expect, it } from "vitest";
import { checkPicture, ICO, JPEG, PNG, pictureSize, WEBP } from "./file-types";

const RASTER = [PNG, JPEG, WEBP];

function png(width: number, height: number) {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write("IHDR", 12, "ascii");
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header[24] = 8;
  header[25] = 6;
  return header;
}

/** A JPEG with an APP0 segment and a Huffman table before its frame header (`sof`: baseline C0, progressive C2). */
function jpeg(width: number, height: number, sof = 0xc0) {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dht = Buffer.from([0xff, 0xc4, 0x00, 0x05, 0x00, 0x00, 0x00]);
  const frame = Buffer.from([
    0xff,
    sof,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, dht, frame, Buffer.from([0xff, 0xd9])]);
}

function gif(width: number, height: number) {
  const bytes = Buffer.alloc(13);
  bytes.write("GIF89a", 0, "ascii");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function riff(chunk: string, body: Buffer) {
  const head = Buffer.alloc(20);
  head.write("RIFF", 0, "ascii");
  head.writeUInt32LE(12 + body.length, 4);
  head.write("WEBP", 8, "ascii");
  head.write(chunk, 12, "ascii");
  head.writeUInt32LE(body.length, 16);
  return Buffer.concat([head, body]);
}

const webpLossy = (width: number, height: number) => {
  const body = Buffer.alloc(10);
  body.set([0x9d, 0x01, 0x2a], 3);
  body.writeUInt16LE(width, 6);
  body.writeUInt16LE(height, 8);
  return riff("VP8 ", body);
};
const webpLossless = (width: number, height: number) => {
  const body = Buffer.alloc(5);
  body[0] = 0x2f;
  body.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return riff("VP8L", body);
};
const webpExtended = (width: number, height: number) => {
  const body = Buffer.alloc(10);
  body.writeUIntLE(width - 1, 4, 3);
  body.writeUIntLE(height - 1, 7, 3);
  return riff("VP8X", body);
};

/** An icon of one 16×16 bitmap entry and one entry that is a whole PNG. */
function ico(embedded: Buffer) {
  const head = Buffer.from([0, 0, 1, 0, 2, 0]);
  const small = Buffer.alloc(16);
  small[0] = 16;
  small[1] = 16;
  small.writeUInt32LE(38, 12);
  const large = Buffer.alloc(16);
  large.writeUInt32LE(38, 12);
  return Buffer.concat([head, small, large, embedded]);
}

describe("pictureSize", () => {
  it("reads the size from each format's header", () => {
    expect(pictureSize(png(640, 480))).toEqual({ width: 640, height: 480 });
    expect(pictureSize(jpeg(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(pictureSize(jpeg(300, 200, 0xc2))).toEqual({ width: 300, height: 200 });
    expect(pictureSize(gif(120, 60))).toEqual({ width: 120, height: 60 });
    expect(pictureSize(webpLossy(800, 600))).toEqual({ width: 800, height: 600 });
    expect(pictureSize(webpLossless(16383, 2))).toEqual({ width: 16383, height: 2 });
    expect(pictureSize(webpExtended(16_777_216, 9))).toEqual({ width: 16_777_216, height: 9 });
    expect(pictureSize(ico(png(5000, 5000)))).toEqual({ width: 5000, height: 5000 });
  });

  it("answers null for a header cut short or no picture at all", () => {
    expect(pictureSize(png(10, 10).subarray(0, 20))).toBeNull();
    expect(pictureSize(jpeg(10, 10).subarray(0, 30))).toBeNull();
    expect(pictureSize(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
  });
});

describe("checkPicture", () => {
  it("takes pictures up to 8000 px a side and 40 megapixels", () => {
    expect(checkPicture(png(8000, 5000), RASTER)).toMatchObject({
      ok: true,
      type: PNG,
      size: { width: 8000, height: 5000 },
    });
    expect(checkPicture(jpeg(6000, 6000), RASTER)).toMatchObject({ ok: true, type: JPEG });
    expect(checkPicture(webpLossy(4000, 3000), RASTER)).toMatchObject({ ok: true, type: WEBP });
  });

  it("refuses a tiny file that claims a huge size, in every format", () => {
    const huge = png(60000, 60000);
    expect(huge.length).toBeLessThan(140);
    expect(checkPicture(huge, RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(png(8001, 10), RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(png(10, 8001), RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(png(7000, 7000), RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(jpeg(65535, 65535), RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(webpLossless(16383, 16383), RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(webpExtended(9000, 100), RASTER)).toEqual({ ok: false, reason: "dimensions" });
    expect(checkPicture(ico(png(60000, 60000)), [ICO])).toEqual({ ok: false, reason: "dimensions" });
  });

  it("refuses SVG, HTML, GIF where not taken, and a header that cannot be read", () => {
    expect(checkPicture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), RASTER)).toEqual({
      ok: false,
      reason: "type",
    });
    expect(checkPicture(Buffer.from("<!doctype html><script>alert(1)</script>"), RASTER)).toEqual({
      ok: false,
      reason: "type",
    });
    expect(checkPicture(gif(10, 10), RASTER)).toEqual({ ok: false, reason: "type" });
    expect(checkPicture(png(10, 10).subarray(0, 16), RASTER)).toEqual({ ok: false, reason: "type" });
  });
});
