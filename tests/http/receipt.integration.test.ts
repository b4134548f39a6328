import { inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { formatDateTime } from "~/lib/format";
import { renderReceiptPdf } from "~/presentation/receipt-pdf.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";

let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Receipt");
  // KNET payments carry a fee of 0.900 the customer pays on top.
  await database.db
    .updateTable("gateways")
    .set({ fee_fixed: 900, fee_basis_points: 0, fee_payer: "customer" })
    .where("merchant_id", "=", shop.merchantId)
    .where("code", "=", "knet-sandbox")
    .execute();
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

async function startPayment(
  gatewayCode: "cod" | "knet-sandbox",
  description = "Blue shirt, size L",
  customer: { customer_first_name?: string; customer_last_name?: string } = {},
) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({ amount: "12.500", pg_codes: [gatewayCode], description, ...customer }),
    baseUrl: addresses.publicBaseUrl,
    lang: "en",
  });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  const started = await startAttempt(database.db, {
    plugins: PAYABLE_SECTIONS,
    transactionId: created.transaction.id,
    gatewayCode,
    submissionToken: "form",
    lang: "en",
    addresses,
  });
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
    for (const [, first, list] of objects
      .get(cmapId)!
      .data!.toString()
      .matchAll(/<([0-9a-f]{4})> <[0-9a-f]{4}> \[([^\]]*)\]/g)) {
      [...list.matchAll(/<([0-9a-f ]+)>/g)].forEach(([, utf16], offset) => {
        map.set(
          parseInt(first, 16) + offset,
          Buffer.from(utf16.replaceAll(" ", ""), "hex").swap16().toString("utf16le"),
        );
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
    for (const [, fontName, shown] of (data?.toString("latin1") ?? "").matchAll(
      /\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/g,
    )) {
      if (fontName) font = toUnicode.get(fontIds.get(fontName)!)!;
      else
        runs.push(
          [...shown.matchAll(/<([0-9a-f]+)>/g)].flatMap(([, hex]) =>
            hex.match(/.{4}/g)!.map((glyph) => font.get(parseInt(glyph, 16)) ?? "?"),
          ),
        );
    }
  }
  return runs;
}

const shownTexts = (pdf: Uint8Array) => shownRuns(pdf).map((glyphs) => glyphs.join(""));
/** Arabic runs are drawn in display order: read back glyph by glyph in reading order. */
const readTexts = (pdf: Uint8Array) =>
  shownRuns(pdf).map((glyphs) =>
    (glyphs.some((glyph) => /\p{Script=Arabic}/u.test(glyph)) ? [...glyphs].reverse() : glyphs).join("").trim(),
  );

describe("renderReceiptPdf", () => {
  it("renders a paid receipt in English: the merchant's header, the customer, the fee split, the method and Kuwait time", async () => {
    const { attemptId, orderNo } = await startPayment("knet-sandbox", "Blue shirt, size L", {
      customer_first_name: "Noura",
      customer_last_name: "Al-Sabah",
    });
    await completeAttempt(database.db, attemptId, {
      status: "success",
      amount: 13400,
      refs: { paymentId: "P100", tranId: "T200" },
    });
    const completedAt = (
      await database.db
        .selectFrom("payment_attempts")
        .select("completed_at")
        .where("id", "=", attemptId)
        .executeTakeFirstOrThrow()
    ).completed_at!;
    const pdf = await renderReceiptPdf(database.db, attemptId, "en");
    expect(Buffer.from(pdf!.subarray(0, 5)).toString()).toBe("%PDF-");
    const texts = shownTexts(pdf!);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Receipt Store",
        "Receipt",
        "Order No",
        orderNo,
        "Customer",
        "Noura Al-Sabah",
        "Amount",
        "KWD\u00a012.500",
        "Service fee",
        "KWD\u00a00.900",
        "Total paid",
        "KWD\u00a013.400",
        "Payment method",
        "KNET",
        "Status",
        "Paid",
        "Date (Kuwait time)",
        formatDateTime(completedAt, "en"),
        "Transaction ID",
        "T200",
        "Blue shirt, size L",
      ]),
    );
    expect(texts).not.toContain("Order confirmation");
  });

  it("calls a cash-on-delivery order a confirmation, not a receipt, with the amount still to pay", async () => {
    const { attemptId, orderNo } = await startPayment("cod");
    const pdf = await renderReceiptPdf(database.db, attemptId, "en");
    const texts = shownTexts(pdf!);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Receipt Store",
        "Order confirmation",
        "Order No",
        orderNo,
        "Amount to pay on delivery",
        "KWD\u00a012.500",
        "Cash on delivery",
        "Blue shirt, size L",
      ]),
    );
    expect(texts).not.toContain("Receipt");
    expect(texts.join(" ")).toContain("It is not a receipt");
  });

  it("renders it in Arabic, right to left with an Arabic font, amounts in Latin digits", async () => {
    const { attemptId, orderNo } = await startPayment("cod", "قميص أزرق، مقاس L");
    const pdf = await renderReceiptPdf(database.db, attemptId, "ar");
    expect(Buffer.from(pdf!.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(Buffer.from(pdf!).toString("latin1")).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic-Regular/);
    const texts = readTexts(pdf!);
    expect(texts).toEqual(
      expect.arrayContaining([
        "تأكيد الطلب",
        "رقم الطلب",
        orderNo,
        "المبلغ المستحق عند الاستلام",
        "12.500",
        "الدفع عند الاستلام",
        "قميص أزرق، مقاس",
        "L",
      ]),
    );
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
  it("downloads the confirmation of a cash-on-delivery order, linked from the result page", async () => {
    const { attemptId, orderNo } = await startPayment("cod");
    const page = await app.request(`/ar/pay/attempt-detail/${attemptId}`);
    expect(await page.text()).toContain(`href="/ar/pay/attempt-detail/${attemptId}/receipt.pdf"`);
    const response = await app.request(`/ar/pay/attempt-detail/${attemptId}/receipt.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="order-confirmation-${orderNo}.pdf"`,
    );
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
