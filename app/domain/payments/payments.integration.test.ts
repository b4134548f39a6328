import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { seedMerchant } from "../../../tests/support/fixtures";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { completeAttempt, startAttempt } from "./attempts.server";
import {
  PaymentRequestSchema,
  type PaymentRequestInput,
} from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { defaultChoice, loadPayPage, payChoicesFor, type PayChoice } from "./pay-page.server";
import { PAYABLE_SECTIONS } from "~/sections/registry";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const addresses = { publicBaseUrl: "https://pay.example", internalBaseUrl: "http://127.0.0.1:9" };

beforeAll(async () => {
  database = await createTestDatabase();
  shop = await seedMerchant(database.db, "Pay");
});
afterAll(async () => database?.destroy());
afterEach(() => resetClock());

function request(fields: Record<string, unknown>): PaymentRequestInput {
  return PaymentRequestSchema.parse({ amount: "12.500", pg_codes: ["knet-sandbox", "mpgs-sandbox", "cod"], ...fields });
}

async function create(fields: Record<string, unknown> = {}) {
  const created = await createPaymentRequest(database.db, {
    merchantId: shop.merchantId,
    user: shop.admin,
    request: request(fields),
    baseUrl: "https://pay.example",
    lang: "en",
  });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  return created.transaction;
}

async function transactionRow(id: string) {
  return database.db
    .selectFrom("transactions")
    .select(["state", "paid_amount", "fee", "gateway_code", "paid_attempt_id"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describe("creating a payment request", () => {
  it("stores the amount in minor units with a short order number and an unguessable id", async () => {
    const first = await create();
    const second = await create({ amount: "1" });
    expect(second.orderNo).toBe(first.orderNo + 1);
    expect(first.id).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(first.payUrl).toBe(`https://pay.example/en/pay/${first.id}`);
    const row = await database.db
      .selectFrom("transactions")
      .select(["amount", "currency_code", "state"])
      .where("id", "=", first.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ amount: 12500, currency_code: "KWD", state: "created" });
  });

  it("refuses bad input field by field", async () => {
    const outcome = await createPaymentRequest(database.db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: request({
        amount: "12.3456",
        pg_codes: [],
        customer_phone: "12",
        expiration_time: "2001-01-01T10:00",
        send_email: "on",
      }),
      baseUrl: "https://pay.example",
      lang: "en",
    });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.errors).toEqual({
      amount: ["money.too_many_decimals"],
      customer_phone: ["payment_request.errors.phone"],
      customer_email: ["payment_request.errors.email_for_sending"],
      expiration_time: ["payment_request.errors.expiration_past"],
      pg_codes: ["payment_request.errors.gateways_required"],
    });
    const usd = await createPaymentRequest(database.db, {
      merchantId: shop.merchantId,
      user: shop.admin,
      request: request({ currency_code: "USD", pg_codes: ["knet-sandbox"] }),
      baseUrl: "https://pay.example",
      lang: "en",
    });
    expect(!usd.ok && usd.errors).toEqual({ pg_codes: ["payment_request.errors.gateway_unavailable"] });
  });

  it("sends the link by email and by SMS when asked", async () => {
    const created = await create({
      customer_email: "buyer@example.com",
      customer_phone: "50001234",
      send_email: "on",
      send_sms: "on",
    });
    const mail = await database.db
      .selectFrom("outgoing_mail")
      .select(["to_address", "text_body"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.to_address).toBe("buyer@example.com");
    expect(mail.text_body).toContain(created.payUrl);
    const sms = await database.db
      .selectFrom("outgoing_sms")
      .select(["to_number", "body"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(sms).toEqual({ to_number: "+96550001234", body: expect.stringContaining(created.payUrl) });
  });
});

describe("the pay page", () => {
  it("marks a request pending when opened and expired past its expiry", async () => {
    const created = await create({ expiration_time: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await loadPayPage(database.db, created.id, PAYABLE_SECTIONS)).status).toBe("payable");
    expect((await transactionRow(created.id)).state).toBe("pending");
    advanceClock(3_600_001);
    expect((await loadPayPage(database.db, created.id, PAYABLE_SECTIONS)).status).toBe("expired");
    expect((await transactionRow(created.id)).state).toBe("expired");
    const retry = await startAttempt(database.db, {
      plugins: PAYABLE_SECTIONS,
      transactionId: created.id,
      gatewayCode: "cod",
      submissionToken: "t1",
      lang: "en",
      addresses,
    });
    expect(retry).toEqual({ ok: false, error: "pay.errors.expired_retry" });
  });

  it("answers not found for unknown and malformed ids, paused when the merchant is paused", async () => {
    expect((await loadPayPage(database.db, "A".repeat(22), PAYABLE_SECTIONS)).status).toBe("not_found");
    expect((await loadPayPage(database.db, "../etc", PAYABLE_SECTIONS)).status).toBe("not_found");
    const created = await create();
    await database.db.updateTable("merchants").set({ is_active: 0 }).where("id", "=", shop.merchantId).execute();
    expect((await loadPayPage(database.db, created.id, PAYABLE_SECTIONS)).status).toBe("paused");
    await database.db.updateTable("merchants").set({ is_active: 1 }).where("id", "=", shop.merchantId).execute();
  });

  it("prices each choice with its fee, the customer paying the card fee", async () => {
    const choices = await payChoicesFor(
      database.db,
      { merchant_id: shop.merchantId, pg_codes: "knet-sandbox,mpgs-sandbox,cod", currency_code: "KWD" },
      12500,
      "en",
    );
    expect(choices.map((choice) => [choice.gateway_code, choice.amount, choice.fee])).toEqual([
      ["knet-sandbox", 12500, 0],
      ["mpgs-sandbox", 12850, 350],
      ["cod", 12500, 0],
    ]);
  });

  it("picks the default choice by the spec's rule", () => {
    const choice = (code: string, kind: PayChoice["kind"], fee: number): PayChoice => ({
      gateway_code: code,
      gateway: code,
      kind,
      logo_url: null,
      amount: 1000 + fee,
      base_amount: 1000,
      fee,
      fee_payer: "customer",
      currency_code: "KWD",
    });
    expect(defaultChoice([choice("a", "card", 5)])?.gateway_code).toBe("a");
    expect(defaultChoice([choice("a", "card", 5), choice("k", "knet", 9)])?.gateway_code).toBe("k");
    expect(defaultChoice([choice("a", "card", 5), choice("b", "card", 2)])?.gateway_code).toBe("b");
    expect(defaultChoice([choice("a", "card", 0), choice("k", "knet", 0)])?.gateway_code).toBe("k");
    expect(defaultChoice([choice("a", "card", 0), choice("b", "cod", 0)])?.gateway_code).toBe("a");
  });
});

describe("paying", () => {
  it("completes cash on delivery at once, and a double submit makes one attempt", async () => {
    const created = await create();
    const submit = () =>
      startAttempt(database.db, {
        plugins: PAYABLE_SECTIONS,
        transactionId: created.id,
        gatewayCode: "cod",
        submissionToken: "same-form",
        lang: "ar",
        addresses,
      });
    const [first, second] = await Promise.all([submit(), submit()]);
    expect(first.ok && second.ok && first.attemptId === second.attemptId).toBe(true);
    const attempts = await database.db
      .selectFrom("payment_attempts")
      .select(["state", "lang"])
      .where("transaction_id", "=", created.id)
      .execute();
    expect(attempts).toEqual([{ state: "cod", lang: "ar" }]);
    expect((await transactionRow(created.id)).state).toBe("cod");
  });

  it("ends an attempt whose starter died before the gateway gave a page, so a repeated submit is not left waiting", async () => {
    const created = await create({ pg_codes: ["knet-sandbox"] });
    const submit = (token: string) =>
      startAttempt(database.db, {
        plugins: PAYABLE_SECTIONS,
        transactionId: created.id,
        gatewayCode: "knet-sandbox",
        submissionToken: token,
        lang: "en",
        addresses,
      });
    const first = await submit("died-midway");
    if (!first.ok) throw new Error(first.error);
    // As the process left it when it died between saving the attempt and hearing from the gateway.
    await database.db
      .updateTable("payment_attempts")
      .set({ redirect_url: null })
      .where("id", "=", first.attemptId)
      .execute();
    advanceClock(30_000);
    const again = await submit("died-midway");
    expect(again).toEqual({
      ok: true,
      attemptId: first.attemptId,
      redirectUrl: `/en/pay/attempt-detail/${first.attemptId}`,
    });
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select(["state", "result_code"])
      .where("id", "=", first.attemptId)
      .executeTakeFirstOrThrow();
    expect(attempt).toEqual({ state: "error", result_code: "NOT_STARTED" });
    // The link is still payable, from a new form.
    const fresh = await submit("new-form");
    expect(fresh.ok && fresh.redirectUrl).toMatch(/\/sandbox\/knet\/kpg\/PaymentHTTP\.htm/);
  });

  it("refuses an amount the customer may not change and a gateway the request does not allow", async () => {
    const created = await create({ pg_codes: ["cod"] });
    expect(
      await startAttempt(database.db, {
        plugins: PAYABLE_SECTIONS,
        transactionId: created.id,
        gatewayCode: "knet-sandbox",
        submissionToken: "x",
        lang: "en",
        addresses,
      }),
    ).toEqual({
      ok: false,
      error: "pay.errors.choose_gateway",
      field: "gateway_code",
    });
    const editable = await create({ editable_amount: "on", pg_codes: ["cod"] });
    expect(
      await startAttempt(database.db, {
        plugins: PAYABLE_SECTIONS,
        transactionId: editable.id,
        gatewayCode: "cod",
        amountText: "-3",
        submissionToken: "y",
        lang: "en",
        addresses,
      }),
    ).toEqual({
      ok: false,
      error: "pay.errors.positive_number",
      field: "amount",
    });
  });

  it("settles an attempt exactly once however many results race", async () => {
    const created = await create({ customer_email: "racer@example.com" });
    const attemptId = "R".repeat(22);
    await database.db
      .insertInto("payment_attempts")
      .values({
        id: attemptId,
        transaction_id: created.id,
        merchant_id: shop.merchantId,
        gateway_code: "knet-sandbox",
        gateway_kind: "knet",
        state: "pending",
        amount: 12500,
        fee: 0,
        total: 12500,
        fee_payer: "merchant",
        currency_code: "KWD",
        track_id: "900000000000000001",
        submission_token: "race",
        gateway_reference: null,
        redirect_url: null,
        payment_id: null,
        tran_id: null,
        auth_code: null,
        reference_id: null,
        post_date: null,
        result_code: null,
        authorized_only: 0,
        created_at: new Date().toISOString(),
        completed_at: null,
      })
      .execute();
    const mailsBefore = (await database.db.selectFrom("outgoing_mail").select("id").execute()).length;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        completeAttempt(database.db, attemptId, { status: "success", amount: 12500, refs: { paymentId: `P${index}` } }),
      ),
    );
    expect(results.filter((result) => result.changed)).toHaveLength(1);
    const ledger = await database.db
      .selectFrom("ledger_entries")
      .select("kind")
      .where("attempt_id", "=", attemptId)
      .execute();
    const row = await transactionRow(created.id);
    const mailsAfter = (await database.db.selectFrom("outgoing_mail").select("id").execute()).length;
    expect(ledger).toEqual([{ kind: "payment" }]);
    expect(mailsAfter - mailsBefore).toBe(1);
    expect(row).toMatchObject({
      state: "paid",
      paid_amount: 12500,
      gateway_code: "knet-sandbox",
      paid_attempt_id: attemptId,
    });
    // A late failure report changes nothing.
    expect((await completeAttempt(database.db, attemptId, { status: "failed", refs: {} })).changed).toBe(false);
    expect((await transactionRow(created.id)).state).toBe("paid");
  });
});
