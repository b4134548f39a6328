import { inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { renderReceiptPdf } from "~/presentation/receipt-pdf.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";

let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Receipt");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

async function startPayment(gatewayCode: "cod" | "knet-sandbox", description = "Blue shirt, size L") {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount: "12.500", pg_codes: [gatewayCode], description }),
    baseUrl: addresses.publicBaseUrl,
    lang: "en",
  });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  const started = await startAttempt(database.db, { plugins: PAYABLE_SECTIONS, transactionId: created.transaction.id, gatewayCode, submissionToken: "form", lang: "en", addresses });
  if (!started.ok) throw new Error(started.error);
  return { attemptId: started.attemptId, orderNo: String(created.transaction.orderNo) };
}

/** The PDF's objects by number, streams inflated: enough to read what PDFKit writes. */
function pdfObjects(pdf: Uint8Array) {
  const bytes = Buffer.from(pdf);
  const source = bytes.toString("latin1");
  const objects = new Map<string, { dict: string; data: Buffer | null }>();
  const header = /(\d+) 0 obj\n/g;
  for (let match = header.exec(source); match; match = header.exec(source)) {
    const streamAt = source.indexOf("stream\n", header.lastIndex);
    const endAt = source.indexOf("endobj", header.lastIndex);
    if (streamAt === -1 || endAt < streamAt) {
      objects.set(match[1], { dict: source.slice(header.lastIndex, endAt), data: null });
      header.lastIndex = endAt;
      continue;
    }
    const dict = source.slice(header.lastIndex, streamAt);
    const raw = bytes.subarray(streamAt + 7, streamAt + 7 + Number(/\/Length (\d+)/.exec(dict)![1]));
    objects.set(match[1], { dict, data: dict.includes("/FlateDecode") ? inflateSync(raw) : raw });
    header.lastIndex = streamAt + 7 + raw.length;
  }
  return objects;
}

/** The glyphs of each text run the PDF shows, in drawing order, decoded through their font's ToUnicode map. */
function shownRuns(pdf: Uint8Array): string[][] {
  const objects = pdfObjects(pdf);
  const toUnicode = new Map<string, Map<number, string>>();
  for (const [id, { dict }] of objects) {
    const cmapId = /\/ToUnicode (\d+) 0 R/.exec(dict)?.[1];
    if (!cmapId) continue;
    const map = new Map<number, string>();
    for (const [, first, list] of objects.get(cmapId)!.data!.toString().matchAll(/<([0-9a-f]{4})> <[0-9a-f]{4}> \[([^\]]*)\]/g)) {
      [...list.matchAll(/<([0-9a-f ]+)>/g)].forEach(([, utf16], offset) => {
        map.set(parseInt(first, 16) + offset, Buffer.from(utf16.replaceAll(" ", ""), "hex").swap16().toString("utf16le"));
      });
    }
    toUnicode.set(id, map);
  }
  const fontIds = new Map<string, string>();
  for (const { dict } of objects.values()) {
    for (const [, name, id] of dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) fontIds.set(name, id);
  }
  const runs: string[][] = [];
  for (const { data } of objects.values()) {
    let font = new Map<number, string>();
    for (const [, fontName, shown] of (data?.toString("latin1") ?? "").matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
      if (fontName) font = toUnicode.get(fontIds.get(fontName)!)!;
      else runs.push([...shown.matchAll(/<([0-9a-f]+)>/g)].flatMap(([, hex]) => hex.match(/.{4}/g)!.map((glyph) => font.get(parseInt(glyph, 16)) ?? "?")));
    }
  }
  return runs;
}

const shownTexts = (pdf: Uint8Array) => shownRuns(pdf).map((glyphs) => glyphs.join(""));
/** Arabic runs are drawn in display order: read back glyph by glyph in reading order. */
const readTexts = (pdf: Uint8Array) =>
  shownRuns(pdf).map((glyphs) => (glyphs.some((glyph) => /\p{Script=Arabic}/u.test(glyph)) ? [...glyphs].reverse() : glyphs).join("").trim());

describe("renderReceiptPdf", () => {
  it("renders the receipt of a cash-on-delivery order in English", async () => {
    const { attemptId, orderNo } = await startPayment("cod");
    const pdf = await renderReceiptPdf(database.db, attemptId, "en");
    expect(Buffer.from(pdf!.subarray(0, 5)).toString()).toBe("%PDF-");
    const texts = shownTexts(pdf!);
    expect(texts).toEqual(expect.arrayContaining(["Receipt Store", "Order No", orderNo, "Amount", "KWD\u00a012.500", "Status", "Cash on delivery", "Blue shirt, size L"]));
  });

  it("renders it in Arabic, right to left with an Arabic font, amounts in Latin digits", async () => {
    const { attemptId, orderNo } = await startPayment("cod", "قميص أزرق، مقاس L");
    const pdf = await renderReceiptPdf(database.db, attemptId, "ar");
    expect(Buffer.from(pdf!.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(Buffer.from(pdf!).toString("latin1")).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic-Regular/);
    const texts = readTexts(pdf!);
    expect(texts).toEqual(expect.arrayContaining(["رقم الطلب", orderNo, "المبلغ", "12.500", "الدفع عند الاستلام", "قميص أزرق، مقاس", "L"]));
    // Right to left: the currency follows the number in reading order, so it is drawn to its left.
    expect(texts.indexOf("12.500")).toBeGreaterThan(texts.findIndex((text) => text.includes("د.ك")));
  });

  it("renders nothing for an unknown, an open or a failed attempt", async () => {
    expect(await renderReceiptPdf(database.db, "A".repeat(22), "en")).toBeNull();
    expect(await renderReceiptPdf(database.db, "../etc/passwd", "en")).toBeNull();
    const { attemptId } = await startPayment("knet-sandbox");
    expect(await renderReceiptPdf(database.db, attemptId, "en")).toBeNull();
    await completeAttempt(database.db, attemptId, { status: "failed", refs: {} });
    expect(await renderReceiptPdf(database.db, attemptId, "ar")).toBeNull();
  });
});

describe("GET /:lang/pay/attempt-detail/:attemptId/receipt.pdf", () => {
  it("downloads the receipt of a successful payment, linked from the result page", async () => {
    const { attemptId, orderNo } = await startPayment("cod");
    const page = await app.request(`/ar/pay/attempt-detail/${attemptId}`);
    expect(await page.text()).toContain(`href="/ar/pay/attempt-detail/${attemptId}/receipt.pdf"`);
    const response = await app.request(`/ar/pay/attempt-detail/${attemptId}/receipt.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="receipt-${orderNo}.pdf"`);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(shownTexts(body)).toContain(orderNo);
  });

  it("answers 404 for an unknown or unsuccessful attempt, and no link on its result page", async () => {
    expect((await app.request(`/en/pay/attempt-detail/${"A".repeat(22)}/receipt.pdf`)).status).toBe(404);
    const { attemptId } = await startPayment("knet-sandbox");
    await completeAttempt(database.db, attemptId, { status: "failed", refs: {} });
    expect((await app.request(`/en/pay/attempt-detail/${attemptId}/receipt.pdf`)).status).toBe(404);
    expect(await (await app.request(`/en/pay/attempt-detail/${attemptId}`)).text()).not.toContain("receipt.pdf");
  });
});
