import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestCollector, setTestRestrictions } from "../../../../tests/support/collect-fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { wirePlatform } from "~/boot/wiring.server";
import { writeTransaction } from "~/db/database.server";
import { completeAttempt, startAttempt } from "~/domain/payments/attempts.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { advanceClock, resetClock } from "~/lib/clock.server";
import {
  COLLECT_PAYMENT_HOLD_MS,
  CollectPaymentSchema,
  createCollectorPayment,
  loadCollectForm,
} from "./collect.server";
import { findPublicCollector, type Collector } from "./collectors.server";
import { kuwaitToday, saveRestrictions } from "./restrictions.server";

// The daily cap per customer holds when the same customer pays from several tabs at once (a race
// only Postgres can run: see below); it counts every payment that can still bring money, and the
// scope its restrictions set.

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
  return createCollectorPayment(database.db, {
    collector,
    input: CollectPaymentSchema.parse({ gateway_code: "knet-sandbox", customer_name: "Fatima", ...fields }),
    lang: "en",
    baseUrl: "http://localhost",
  });
}

const addresses = { publicBaseUrl: "http://localhost", internalBaseUrl: "http://localhost" };
const onPostgres = process.env.TEST_DB_ENGINE === "postgres";

/** The customer presses Pay Now on the pay page: an attempt starts and waits for the gateway. */
async function startPaying(transactionId: string, submissionToken = `t-${transactionId}`) {
  const started = await startAttempt(database.db, {
    plugins: ["customer_payment"],
    transactionId,
    gatewayCode: "knet-sandbox",
    submissionToken,
    lang: "en",
    addresses,
  });
  if (!started.ok) throw new Error(started.error);
  return started.attemptId;
}

const stateOf = async (id: string) =>
  (await database.db.selectFrom("transactions").select("state").where("id", "=", id).executeTakeFirstOrThrow()).state;
const staff = () => ({ id: shop.admin.id, username: shop.admin.username });

describe("the daily cap per customer", () => {
  // Only Postgres runs these writes side by side (a pool of five connections); SQLite has one
  // connection and BEGIN IMMEDIATE, so there they pass one after another and show the rule, not the race.
  it("lets exactly as many payments through as fit under the merchant's cap when ten pages are paid at once", async () => {
    const merchant = await seedMerchant(database.db, "Tabs");
    await setTestRestrictions(database.db, { merchantId: merchant.merchantId, limits: { KWD: { daily_cap: 10_000 } } });
    const pages = await Promise.all(
      Array.from({ length: 10 }, async () =>
        collectorOf(
          (await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" }))
            .publicId,
        ),
      ),
    );
    const outcomes = await Promise.all(
      pages.map((collector) => pay(collector, { amount: "3.000", customer_phone: "50001111" })),
    );
    const passed = outcomes.filter((outcome) => outcome.ok);
    expect(passed).toHaveLength(3);
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused).toHaveLength(7);
    for (const outcome of refused)
      expect(outcome).toMatchObject({ kind: "refused", errors: { amount: ["collect_public.errors.daily_cap"] } });
    // What is left today is said: 1 KWD.
    expect(refused[0]).toMatchObject({ params: { left: { minor: 1000, currency: "KWD" } } });
    const rows = await database.db
      .selectFrom("customer_payments")
      .select(["amount", "customer_key", "day"])
      .where("merchant_id", "=", merchant.merchantId)
      .execute();
    expect(rows.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(9000);
    expect(rows.every((row) => row.customer_key === "+96550001111" && row.day === kuwaitToday())).toBe(true);
    // Another customer has a day of their own.
    expect((await pay(pages[0], { amount: "3.000", customer_phone: "50002222" })).ok).toBe(true);
  });

  it("keeps one payable link per customer and page when ten tabs of one page send the form at once", async () => {
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, phone_field: "required" });
    await setTestRestrictions(database.db, {
      merchantId: shop.merchantId,
      collectorId: made.id,
      limits: { KWD: { daily_cap: 10_000 } },
    });
    const collector = await collectorOf(made.publicId);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => pay(collector, { amount: "3.000", customer_phone: "50003333" })),
    );
    // Each tab's form replaces the one before that nobody started paying: one link is left to pay.
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    const states = await database.db
      .selectFrom("customer_payments")
      .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
      .select("transactions.state")
      .where("customer_payments.collector_id", "=", made.id)
      .execute();
    expect(states.filter((row) => row.state === "created")).toHaveLength(1);
    expect(states.filter((row) => row.state === "expired")).toHaveLength(9);
  });

  it("counts a payment whose attempt started before its time ran out, until that attempt can no longer bring money", async () => {
    // At noon in Kuwait: the half hour below must not cross midnight there, where the daily cap starts again.
    advanceClock(untilNextKuwaitNoon());
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, phone_field: "required" });
    await setTestRestrictions(database.db, {
      merchantId: shop.merchantId,
      collectorId: made.id,
      limits: { KWD: { daily_cap: 10_000 } },
    });
    const collector = await collectorOf(made.publicId);
    const first = await pay(collector, { amount: "10.000", customer_phone: "50004444" });
    if (!first.ok) throw new Error(JSON.stringify(first));
    const attemptId = await startPaying(first.transaction.id);
    try {
      // 31 minutes later the link is past its time, but the gateway may still take the money.
      advanceClock(31 * 60_000);
      expect(await pay(collector, { amount: "10.000", customer_phone: "50004444" })).toMatchObject({
        ok: false,
        errors: { amount: ["collect_public.errors.daily_cap"] },
      });
      // The sweep expires it: a payment started before still completes on it, so it still counts.
      await writeTransaction(database.db, (trx) =>
        transitionTransaction(trx, first.transaction.id, "expired", { kind: "expired" }),
      );
      expect(await pay(collector, { amount: "10.000", customer_phone: "50004444" })).toMatchObject({
        ok: false,
        errors: { amount: ["collect_public.errors.daily_cap"] },
      });
      // The gateway says no, and the reconciler stops asking once its session is over: no money can come.
      await completeAttempt(database.db, attemptId, { status: "failed", refs: {} });
      await database.db
        .updateTable("payment_attempts")
        .set({ next_inquiry_at: null })
        .where("id", "=", attemptId)
        .execute();
      expect((await pay(collector, { amount: "10.000", customer_phone: "50004444" })).ok).toBe(true);
    } finally {
      resetClock();
    }
  });

  it("stops counting a payment that ended without money, and replaces a link nobody started paying", async () => {
    const made = await createTestCollector(database.db, {
      merchantId: shop.merchantId,
      phone_field: "off",
      email_field: "optional",
    });
    await setTestRestrictions(database.db, {
      merchantId: shop.merchantId,
      collectorId: made.id,
      limits: { KWD: { daily_cap: 5_000 } },
    });
    const collector = await collectorOf(made.publicId);
    // Without a phone field the e-mail tells customers apart under the page's own cap, and becomes required.
    const form = await loadCollectForm(database.db, collector);
    expect(form.identity).toBe("customer_email");
    expect(form.fields.find((field) => field.name === "customer_email")?.required).toBe(true);
    expect(await pay(collector, { amount: "1.000" })).toMatchObject({
      ok: false,
      errors: { customer_email: ["errors.required"] },
    });

    const first = await pay(collector, { amount: "4.000", customer_email: "Sara@Example.com" });
    if (!first.ok) throw new Error("the first payment was refused");
    const attemptId = await startPaying(first.transaction.id);
    expect(await pay(collector, { amount: "2.000", customer_email: "sara@example.com" })).toMatchObject({
      ok: false,
      errors: { amount: ["collect_public.errors.daily_cap"] },
    });
    // It fails for good and staff cancel it: it counts no more.
    await completeAttempt(database.db, attemptId, { status: "failed", refs: {} });
    await database.db
      .updateTable("payment_attempts")
      .set({ next_inquiry_at: null })
      .where("id", "=", attemptId)
      .execute();
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, first.transaction.id, "canceled", { kind: "canceled", actor: staff() }),
    );
    const second = await pay(collector, { amount: "4.500", customer_email: "sara@example.com" });
    if (!second.ok) throw new Error(JSON.stringify(second));
    // Back from the pay page to correct the amount: the link not yet paid is replaced, not counted twice.
    const corrected = await pay(collector, { amount: "5.000", customer_email: "sara@example.com" });
    expect(corrected.ok).toBe(true);
    expect(await stateOf(second.transaction.id)).toBe("expired");
    const replaced = await database.db
      .selectFrom("audit_log")
      .select("description")
      .where("object_id", "=", second.transaction.id)
      .where("action", "=", "collector_payment_replaced")
      .execute();
    expect(replaced).toHaveLength(1);
    // Left unpaid past its time, with nothing started, it counts no more.
    advanceClock(COLLECT_PAYMENT_HOLD_MS + 1000);
    try {
      expect((await pay(collector, { amount: "4.500", customer_email: "sara@example.com" })).ok).toBe(true);
    } finally {
      resetClock();
    }
  });

  it("counts every collector's payments under the merchant's cap, and only its own under a collector's", async () => {
    const merchant = await seedMerchant(database.db, "Scope");
    const first = await collectorOf(
      (await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" })).publicId,
    );
    const second = await collectorOf(
      (await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" })).publicId,
    );
    await setTestRestrictions(database.db, { merchantId: merchant.merchantId, limits: { KWD: { daily_cap: 5_000 } } });
    expect((await pay(first, { amount: "3.000", customer_phone: "60001234" })).ok).toBe(true);
    expect(await pay(second, { amount: "3.000", customer_phone: "60001234" })).toMatchObject({
      ok: false,
      errors: { amount: ["collect_public.errors.daily_cap"] },
    });
    // The second page gets restrictions of its own: its cap counts its own payments.
    await setTestRestrictions(database.db, {
      merchantId: merchant.merchantId,
      collectorId: second.id,
      limits: { KWD: { daily_cap: 5_000 } },
    });
    expect((await pay(second, { amount: "3.000", customer_phone: "60001234" })).ok).toBe(true);
  });

  it("tells customers apart by their phone on every page under the merchant's cap, even a page that asks only the e-mail", async () => {
    const merchant = await seedMerchant(database.db, "Phone");
    await setTestRestrictions(database.db, { merchantId: merchant.merchantId, limits: { KWD: { daily_cap: 5_000 } } });
    const byEmail = await collectorOf(
      (
        await createTestCollector(database.db, {
          merchantId: merchant.merchantId,
          phone_field: "off",
          email_field: "required",
        })
      ).publicId,
    );
    const byPhone = await collectorOf(
      (
        await createTestCollector(database.db, {
          merchantId: merchant.merchantId,
          phone_field: "optional",
          email_field: "off",
        })
      ).publicId,
    );
    const form = await loadCollectForm(database.db, byEmail);
    expect(form.identity).toBe("customer_phone");
    expect(form.fields.find((field) => field.name === "customer_phone")?.required).toBe(true);
    expect(await pay(byEmail, { amount: "3.000", customer_email: "omar@example.com" })).toMatchObject({
      ok: false,
      errors: { customer_phone: ["errors.required"] },
    });
    const paid = await pay(byEmail, {
      amount: "3.000",
      customer_email: "omar@example.com",
      customer_phone: "65001234",
    });
    if (!paid.ok) throw new Error(JSON.stringify(paid));
    await startPaying(paid.transaction.id);
    // The same customer on the other page is the same customer.
    expect(await pay(byPhone, { amount: "3.000", customer_phone: "+965 6500 1234" })).toMatchObject({
      ok: false,
      errors: { amount: ["collect_public.errors.daily_cap"] },
    });
  });
});

describe("on Postgres, payments and saved restrictions at once", () => {
  it.runIf(onPostgres)("neither deadlock nor let a page with its own set slip past the merchant's cap", async () => {
    const merchant = await seedMerchant(database.db, "Locks");
    const actor = { id: merchant.admin.id, username: merchant.admin.username };
    await setTestRestrictions(database.db, { merchantId: merchant.merchantId, limits: { KWD: { daily_cap: 10_000 } } });
    const shared = await collectorOf(
      (await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" })).publicId,
    );
    const own = await collectorOf(
      (await createTestCollector(database.db, { merchantId: merchant.merchantId, phone_field: "required" })).publicId,
    );
    await setTestRestrictions(database.db, {
      merchantId: merchant.merchantId,
      collectorId: own.id,
      limits: { KWD: { daily_cap: 50_000 } },
    });
    const input = { limits: { KWD: { daily_cap: "10.000" } } };
    for (let round = 0; round < 6; round++) {
      const phone = `6600${String(round).padStart(4, "0")}`;
      const results = await Promise.allSettled([
        pay(shared, { amount: "6.000", customer_phone: phone }),
        pay(own, { amount: "6.000", customer_phone: phone }),
        saveRestrictions(database.db, { merchantId: merchant.merchantId, collectorId: null, actor, input }),
        pay(shared, { amount: "1.000", customer_phone: `5500${String(round).padStart(4, "0")}` }),
        saveRestrictions(database.db, { merchantId: merchant.merchantId, collectorId: null, actor, input }),
      ]);
      expect(results.filter((result) => result.status === "rejected")).toEqual([]);
      // The merchant's cap counts the page with its own set too, in the order the payments were made.
      const rows = await database.db
        .selectFrom("customer_payments")
        .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
        .select(["customer_payments.collector_id", "customer_payments.amount", "transactions.order_no"])
        .where("customer_payments.customer_key", "=", `+965${phone}`)
        .orderBy("transactions.order_no")
        .execute();
      let before = 0;
      for (const row of rows) {
        if (row.collector_id === shared.id) expect(before + Number(row.amount)).toBeLessThanOrEqual(10_000);
        before += Number(row.amount);
      }
    }
  });
});

describe("the same form sent twice", () => {
  it("makes one payment, and a corrected amount with the same form a new one", async () => {
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, phone_field: "required" });
    await setTestRestrictions(database.db, {
      merchantId: shop.merchantId,
      collectorId: made.id,
      limits: { KWD: { daily_cap: 10_000 } },
    });
    const collector = await collectorOf(made.publicId);
    const form = { amount: "8.000", customer_phone: "51112222", submission_token: "Tok3nTok3nTok3nTok3nAB" };
    const twice = await Promise.all([pay(collector, form), pay(collector, form)]);
    if (!twice[0].ok || !twice[1].ok) throw new Error(JSON.stringify(twice));
    expect(twice[1].transaction.id).toBe(twice[0].transaction.id);
    // A third time, after the first is being paid: the same payment, not the cap's refusal.
    await startPaying(twice[0].transaction.id);
    const third = await pay(collector, form);
    expect(third).toMatchObject({ ok: true, transaction: { id: twice[0].transaction.id, amount: 8_000 } });
    expect(
      await database.db
        .selectFrom("customer_payments")
        .select("transaction_id")
        .where("collector_id", "=", made.id)
        .execute(),
    ).toHaveLength(1);
    const changed = await pay(collector, { ...form, amount: "1.000" });
    if (!changed.ok) throw new Error(JSON.stringify(changed));
    expect(changed.transaction.id).not.toBe(twice[0].transaction.id);
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
    const outcome = await pay(collector, {
      amount: "12.5",
      customer_email: "parent@example.com",
      reference: "INV-7",
      extra: { fclass: "5B" },
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const row = await database.db
      .selectFrom("transactions")
      .selectAll()
      .where("id", "=", outcome.transaction.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      plugin: "customer_payment",
      amount: 12_500,
      currency_code: "KWD",
      state: "created",
      customer_first_name: "Fatima",
      customer_email: "parent@example.com",
      pg_codes: "knet-sandbox",
      description: "Pay your invoice",
      remarks: "Reference: INV-7~Student class: 5B",
    });
    expect(JSON.parse(row.extra)).toEqual({ collector: made.publicId, reference: "INV-7", fclass: "5B" });
    const due = new Date(row.expiration_time!).getTime() - new Date(row.created_at).getTime();
    expect(Math.abs(due - COLLECT_PAYMENT_HOLD_MS)).toBeLessThan(1000);
    expect(outcome.transaction.payUrl).toBe(`http://localhost/en/pay/${outcome.transaction.id}`);
  });

  it("is refused on a collector that is off, or outside its days", async () => {
    const off = await collectorOf(
      (await createTestCollector(database.db, { merchantId: shop.merchantId, is_active: false })).publicId,
    );
    expect(await pay(off, { amount: "1.000" })).toEqual({ ok: false, kind: "closed" });
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId });
    await setTestRestrictions(database.db, {
      merchantId: shop.merchantId,
      collectorId: made.id,
      active_from: "2000-01-01",
      active_to: "2000-12-31",
    });
    expect(await pay(await collectorOf(made.publicId), { amount: "1.000" })).toEqual({ ok: false, kind: "closed" });
  });

  it("once paid, mails the customer who gave an e-mail their receipt, with the payment", async () => {
    const made = await createTestCollector(database.db, { merchantId: shop.merchantId, email_field: "optional" });
    const outcome = await pay(await collectorOf(made.publicId), {
      amount: "7.000",
      customer_email: "receipt@example.com",
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const started = await startAttempt(database.db, {
      plugins: ["customer_payment"],
      transactionId: outcome.transaction.id,
      gatewayCode: "knet-sandbox",
      submissionToken: "receipt",
      lang: "en",
      addresses,
    });
    if (!started.ok) throw new Error(started.error);
    const attempt = await database.db
      .selectFrom("payment_attempts")
      .select("amount")
      .where("id", "=", started.attemptId)
      .executeTakeFirstOrThrow();
    const mailsBefore = await database.db
      .selectFrom("outgoing_mail")
      .select("id")
      .where("to_address", "=", "receipt@example.com")
      .execute();
    expect(mailsBefore).toEqual([]);
    await completeAttempt(database.db, started.attemptId, {
      status: "success",
      amount: attempt.amount,
      refs: { paymentId: "P1", tranId: "T1" },
    });
    const state = await database.db
      .selectFrom("transactions")
      .select("state")
      .where("id", "=", outcome.transaction.id)
      .executeTakeFirstOrThrow();
    expect(state.state).toBe("paid");
    const mails = await database.db
      .selectFrom("outgoing_mail")
      .select("subject")
      .where("to_address", "=", "receipt@example.com")
      .execute();
    expect(mails).toHaveLength(1);
  });
});

/** How far the clock is from the next noon in Kuwait (UTC+3, no daylight saving time): at most a day. */
function untilNextKuwaitNoon(): number {
  const noonUtc = new Date();
  noonUtc.setUTCHours(9, 0, 0, 0);
  while (noonUtc.getTime() <= Date.now()) noonUtc.setUTCDate(noonUtc.getUTCDate() + 1);
  return noonUtc.getTime() - Date.now();
}
