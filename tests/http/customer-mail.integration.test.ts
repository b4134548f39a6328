import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction } from "~/db/database.server";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { recordOperationResult, reserveOperation } from "~/domain/payments/operations.server";
import { resetEnvCache } from "~/lib/env.server";
import type { Language } from "~/lib/i18n";
import { runReadyJobs } from "~/lib/jobs.server";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";
import { seedMerchant } from "../support/fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The customer's mails leave through a real SMTP server on loopback and are read back as a mail
 * reader would: both parts of multipart/alternative, in English and in Arabic.
 */

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let smtp: SMTPServer;
const received: ParsedMail[] = [];
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };
const saved = { SMTP_URL: process.env.SMTP_URL, BASE_URL: process.env.BASE_URL };
const HOSTILE_NAME = `Noura <img src=x onerror="alert(1)">`;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.BASE_URL = "https://pay.example";
  resetEnvCache();
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Mail");
  // The customer pays a fixed fee of 0.900 on top, and the unit has a dark header.
  await database.db
    .updateTable("gateways")
    .set({ fee_fixed: 900, fee_basis_points: 0, fee_payer: "customer" })
    .where("merchant_id", "=", shop.merchantId)
    .where("code", "=", "knet-sandbox")
    .execute();
  await database.db
    .updateTable("units")
    .set({ header_color: "#1f2a44" })
    .where("merchant_id", "=", shop.merchantId)
    .execute();
});

afterAll(async () => {
  await database?.destroy();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
});

/** A payment request of 40.000 paid by KNET (0.900 fee on top) in `lang`, by a customer with an e-mail address. */
async function paidRequest(lang: Language, email: string, cardMasked?: string) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: PaymentRequestSchema.parse({
      amount: "40.000",
      pg_codes: ["knet-sandbox"],
      customer_email: email,
      customer_first_name: HOSTILE_NAME,
      customer_last_name: "Al-Sabah",
      description: lang === "ar" ? "قميص أزرق، مقاس L" : "Blue shirt, size L",
    }),
    baseUrl: addresses.publicBaseUrl,
    lang,
  });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  const started = await startAttempt(database.db, {
    plugins: PAYABLE_SECTIONS,
    transactionId: created.transaction.id,
    gatewayCode: "knet-sandbox",
    submissionToken: "form",
    lang,
    addresses,
  });
  if (!started.ok) throw new Error(started.error);
  await completeAttempt(database.db, started.attemptId, {
    status: "success",
    amount: 40900,
    refs: { paymentId: "P1", tranId: "T1", cardMasked },
  });
  return { transactionId: created.transaction.id, orderNo: String(created.transaction.orderNo) };
}

/** Delivers what is queued and answers the mails that reached `to`. */
async function deliveredTo(to: string) {
  while ((await runReadyJobs(database.db)) > 0);
  return received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === to);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

async function refund(transactionId: string, amount: string) {
  const reserved = await writeTransaction(database.db, (trx) =>
    reserveOperation(trx, {
      merchantId: shop.merchantId,
      actor: { ...shop.admin, is_superuser: 1, permissions: [] },
      transactionId,
      kind: "refund",
      amount,
      requestId: null,
    }),
  );
  if (!reserved.ok) throw new Error(reserved.code);
  return reserved.operationId;
}

function expectBothParts(mail: ParsedMail) {
  expect(mail.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
  expect(mail.text).toBeTruthy();
  expect(mail.html).toBeTruthy();
  return { html: mail.html as string, text: mail.text! };
}

describe("the payment receipt by e-mail", () => {
  it("names the card by its last four digits when the gateway gave the masked number", async () => {
    await paidRequest("en", "paid-card@example.com", "411111******1111");
    const [mail] = await deliveredTo("paid-card@example.com");
    const { html, text } = expectBothParts(mail);
    for (const part of [html, text]) {
      expect(part).toContain("•••• 1111");
      expect(part).not.toContain("411111");
    }
  });

  it("arrives in English with both parts: branding, the fee split, the method and Kuwait time, the name escaped", async () => {
    const { orderNo } = await paidRequest("en", "paid-en@example.com");
    const [mail, ...others] = await deliveredTo("paid-en@example.com");
    expect(others).toHaveLength(0);
    expect(mail.subject).toBe(`Payment received for order #${orderNo}`);
    const { html, text } = expectBothParts(mail);
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain("background:#1f2a44");
    expect(html).toContain('src="https://pay.example/brand/demo-logo.svg"');
    for (const part of [html, text]) {
      expect(part).toContain("Mail Store");
      expect(part).toContain(orderNo);
      expect(part).toContain("Blue shirt, size L");
      expect(part).toContain("KNET");
      expect(part).toMatch(/Date \(Kuwait time\)/);
    }
    expect(text).toMatch(/Amount:\s+KWD\u00a040\.000\n/);
    expect(text).toMatch(/Service fee:\s+KWD\u00a00\.900\n/);
    expect(text).toMatch(/Total paid:\s+KWD\u00a040\.900\n/);
    expect(text).toContain(`Hello ${HOSTILE_NAME} Al-Sabah,`);
    // In the HTML the customer's name is text, never markup.
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("Noura &#60;img src=x onerror=&#34;alert(1)&#34;&#62; Al-Sabah");
  });

  it("arrives in Arabic right to left, each amount once with its currency once", async () => {
    const { orderNo } = await paidRequest("ar", "paid-ar@example.com");
    const [mail] = await deliveredTo("paid-ar@example.com");
    expect(mail.subject).toBe(`تم استلام الدفع للطلب رقم ${orderNo}`);
    const { html, text } = expectBothParts(mail);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    for (const part of [html, text]) {
      expect(part).toContain("متجر Mail");
      expect(part).toContain("رسوم الخدمة");
      expect(part).toContain("قميص أزرق، مقاس L");
      expect(occurrences(part, "40.900")).toBe(1);
      expect(occurrences(part, "0.900")).toBe(2);
      // Three amounts: three currency signs, never one doubled into "د.ك..".
      expect(occurrences(part, "د.ك.")).toBe(3);
      expect(part).not.toContain("د.ك..");
    }
    expect(text).toMatch(/إجمالي المدفوع:\s+\u200f40\.900\u00a0د\.ك\.\u200f\n/);
  });
});

describe("the refund e-mail", () => {
  it("is sent once per completed refund, even when the request and the reconciler both record it, in the language paid in", async () => {
    const { transactionId, orderNo } = await paidRequest("ar", "refund-ar@example.com");
    const operationId = await refund(transactionId, "10.000");
    expect(await recordOperationResult(database.db, operationId, { ok: true, reference: "R1" })).toBe(true);
    expect(
      await recordOperationResult(database.db, operationId, { ok: true, reference: "R1" }, { by: "reconciler" }),
    ).toBe(false);
    const refunds = (await deliveredTo("refund-ar@example.com")).filter(
      (mail) => mail.subject === `استرداد مبلغ للطلب رقم ${orderNo}`,
    );
    expect(refunds).toHaveLength(1);
    const { html, text } = expectBothParts(refunds[0]);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    for (const part of [html, text]) {
      expect(part).toContain(orderNo);
      expect(part).toContain("المبلغ المسترد الآن");
      expect(occurrences(part, "10.000")).toBe(1);
      expect(part).toContain("المبلغ المتبقي المدفوع");
      expect(occurrences(part, "30.900")).toBe(1);
      expect(occurrences(part, "د.ك.")).toBe(3);
      expect(part).not.toContain("د.ك..");
    }
  });

  it("says in English what was refunded now, in all and what remains; a refused refund mails nothing", async () => {
    const { transactionId, orderNo } = await paidRequest("en", "refund-en@example.com");
    const first = await refund(transactionId, "10.000");
    await recordOperationResult(database.db, first, { ok: true });
    const refused = await refund(transactionId, "5.000");
    await recordOperationResult(database.db, refused, { ok: false, message: "Declined" });
    const second = await refund(transactionId, "20.000");
    await recordOperationResult(database.db, second, { ok: true });
    const refunds = (await deliveredTo("refund-en@example.com")).filter(
      (mail) => mail.subject === `Refund for order #${orderNo}`,
    );
    expect(refunds).toHaveLength(2);
    const { html, text } = expectBothParts(refunds[1]);
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(text).toMatch(/Amount paid:\s+KWD\u00a040\.900\n/);
    expect(text).toMatch(/Refunded now:\s+KWD\u00a020\.000\n/);
    expect(text).toMatch(/Refunded in total:\s+KWD\u00a030\.000\n/);
    expect(text).toMatch(/Remaining paid amount:\s+KWD\u00a010\.900\n/);
    expect(html).toContain("KWD\u00a010.900");
  });
});
