import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestCollector, setTestRestrictions } from "../../../../tests/support/collect-fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { wirePlatform } from "~/boot/wiring.server";
import { writeTransaction } from "~/db/database.server";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import { COLLECT_PAYMENT_HOLD_MS, CollectPaymentSchema, createCollectorPayment, loadCollectForm } from "./collect.server";
import { findPublicCollector, type Collector } from "./collectors.server";
import { kuwaitToday } from "./restrictions.server";

// The daily cap per customer holds when the same customer pays from several tabs at once, on both
// engines; it counts only payments that can still bring money, and the scope its restrictions set.

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Collect");
});
afterAll(async () => {
  resetClock();
  await database?.destroy();
});

async function collectorOf(publicId: string): Promise<Collector> {
  return (await findPublicCollector(database.db, publicId))!;
}

function pay(collector: Collector, fields: Record<string, unknown>) {
  return createCollectorPayment(database.db, { collector, input: CollectPaymentSchema.parse({ gateway_code: "knet-sandbox", customer_name: "Fatima", ...fields }), lang: "en", baseUrl: "http://localhost" });
}

describe("the daily cap per customer", () => {
  it("lets exactly as many payments through as fit under the cap when ten tabs pay at once", async () => {
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, phone_field: "required" });
    await setTestRestrictions(database.db, { merchantId: shop.merchantId, collectorId: made.id, limits: { KWD: { daily_cap: 10_000 } } });
    const collector = await collectorOf(made.publicId);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => pay(collector, { amount: "3.000", customer_phone: "50001111" })));
    const passed = outcomes.filter((outcome) => outcome.ok);
    expect(passed).toHaveLength(3);
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused).toHaveLength(7);
    for (const outcome of refused) expect(outcome).toMatchObject({ kind: "refused", errors: { amount: ["collect_public.errors.daily_cap"] } });
    // What is left today is said: 1 KWD.
    expect(refused[0]).toMatchObject({ params: { left: { minor: 1000, currency: "KWD" } } });
    const rows = await database.db.selectFrom("customer_payments").select(["amount", "customer_key", "day"]).where("collector_id", "=", made.id).execute();
    expect(rows.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(9000);
    expect(rows.every((row) => row.customer_key === "+96550001111" && row.day === kuwaitToday())).toBe(true);
    // Another customer has a day of their own.
    expect((await pay(collector, { amount: "3.000", customer_phone: "50002222" })).ok).toBe(true);
  });

  it("stops counting a payment that failed, or an unpaid one once it can no longer be paid", async () => {
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, phone_field: "off", email_field: "optional" });
    await setTestRestrictions(database.db, { merchantId: shop.merchantId, collectorId: made.id, limits: { KWD: { daily_cap: 5_000 } } });
    const collector = await collectorOf(made.publicId);
    // Without a phone field the e-mail tells customers apart, and becomes required.
    const form = await loadCollectForm(database.db, collector);
    expect(form.identity).toBe("customer_email");
    expect(form.fields.find((field) => field.name === "customer_email")?.required).toBe(true);
    expect(await pay(collector, { amount: "1.000" })).toMatchObject({ ok: false, errors: { customer_email: ["errors.required"] } });

    const first = await pay(collector, { amount: "4.000", customer_email: "Sara@Example.com" });
    if (!first.ok) throw new Error("the first payment was refused");
    expect(await pay(collector, { amount: "2.000", customer_email: "sara@example.com" })).toMatchObject({ ok: false, errors: { amount: ["collect_public.errors.daily_cap"] } });
    await writeTransaction(database.db, (trx) => transitionTransaction(trx, first.transaction.id, "canceled", { kind: "canceled", actor: { id: shop.admin.id, username: shop.admin.username } }));
    const second = await pay(collector, { amount: "4.500", customer_email: "sara@example.com" });
    expect(second.ok).toBe(true);
    // Left unpaid past its time, it counts no more.
    advanceClock(COLLECT_PAYMENT_HOLD_MS + 1000);
    try {
      expect((await pay(collector, { amount: "4.500", customer_email: "sara@example.com" })).ok).toBe(true);
    } finally {
      resetClock();
    }
  });

  it("counts every collector's payments under the merchant's cap, and only its own under a collector's", async () => {
    const merchant = await seedMerchant(database.db, "Scope");
    const first = await collectorOf((await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" })).publicId);
    const second = await collectorOf((await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" })).publicId);
    await setTestRestrictions(database.db, { merchantId: merchant.merchantId, limits: { KWD: { daily_cap: 5_000 } } });
    expect((await pay(first, { amount: "3.000", customer_phone: "60001234" })).ok).toBe(true);
    expect(await pay(second, { amount: "3.000", customer_phone: "60001234" })).toMatchObject({ ok: false, errors: { amount: ["collect_public.errors.daily_cap"] } });
    // The second page gets restrictions of its own: its cap counts its own payments.
    await setTestRestrictions(database.db, { merchantId: merchant.merchantId, collectorId: second.id, limits: { KWD: { daily_cap: 5_000 } } });
    expect((await pay(second, { amount: "3.000", customer_phone: "60001234" })).ok).toBe(true);
  });
});

describe("a collector payment", () => {
  it("is a transaction of the section with the customer's details, its answers as remarks, due in 30 minutes", async () => {
    const made = await createTestCollector(database.db, {
      merchantId: shop.merchantId,
      reference_field: "required",
      text_fields: [{ name: "fclass", label_en: "Student class", label_ar: "الصف", required: true }],
    });
    const collector = await collectorOf(made.publicId);
    const outcome = await pay(collector, { amount: "12.5", customer_email: "parent@example.com", reference: "INV-7", extra: { fclass: "5B" } });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const row = await database.db.selectFrom("transactions").selectAll().where("id", "=", outcome.transaction.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ plugin: "customer_payment", amount: 12_500, currency_code: "KWD", state: "created", customer_first_name: "Fatima", customer_email: "parent@example.com", pg_codes: "knet-sandbox", description: "Pay your invoice", remarks: "Reference: INV-7~Student class: 5B" });
    expect(JSON.parse(row.extra)).toEqual({ collector: made.publicId, reference: "INV-7", fclass: "5B" });
    const due = new Date(row.expiration_time!).getTime() - new Date(row.created_at).getTime();
    expect(Math.abs(due - COLLECT_PAYMENT_HOLD_MS)).toBeLessThan(1000);
    expect(outcome.transaction.payUrl).toBe(`http://localhost/en/pay/${outcome.transaction.id}`);
  });

  it("is refused on a collector that is off, or outside its days", async () => {
    const off = await collectorOf((await createTestCollector(database.db, { merchantId: shop.merchantId, is_active: false })).publicId);
    expect(await pay(off, { amount: "1.000" })).toEqual({ ok: false, kind: "closed" });
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId });
    await setTestRestrictions(database.db, { merchantId: shop.merchantId, collectorId: made.id, active_from: "2000-01-01", active_to: "2000-12-31" });
    expect(await pay(await collectorOf(made.publicId), { amount: "1.000" })).toEqual({ ok: false, kind: "closed" });
  });

  it("once paid, mails the customer who gave an e-mail their receipt, with the payment", async () => {
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, email_field: "optional" });
    const outcome = await pay(await collectorOf(made.publicId), { amount: "7.000", customer_email: "receipt@example.com" });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const addresses = { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" };
    const started = await startAttempt(database.db, { plugins: ["customer_payment"], transactionId: outcome.transaction.id, gatewayCode: "knet-sandbox", submissionToken: "receipt", lang: "en", addresses });
    if (!started.ok) throw new Error(started.error);
    const attempt = await database.db.selectFrom("payment_attempts").select("amount").where("id", "=", started.attemptId).executeTakeFirstOrThrow();
    const mailsBefore = await database.db.selectFrom("outgoing_mail").select("id").where("to_address", "=", "receipt@example.com").execute();
    expect(mailsBefore).toEqual([]);
    await completeAttempt(database.db, started.attemptId, { status: "success", amount: attempt.amount, refs: { paymentId: "P1", tranId: "T1" } });
    const state = await database.db.selectFrom("transactions").select("state").where("id", "=", outcome.transaction.id).executeTakeFirstOrThrow();
    expect(state.state).toBe("paid");
    const mails = await database.db.selectFrom("outgoing_mail").select("subject").where("to_address", "=", "receipt@example.com").execute();
    expect(mails).toHaveLength(1);
  });
});
