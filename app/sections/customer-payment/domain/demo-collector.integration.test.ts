import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { wirePlatform } from "~/boot/wiring.server";
import { customerPayment } from "../section";
import { seedDemoCollector } from "./demo-collector.server";
import { sectionServer } from "../section.server";

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Demo");
});
afterAll(async () => database?.destroy());

describe("the demo collector page", () => {
  it("is the section's demo job: “Pay your invoice” with restrictions and three customers' payments, two of them paid, made once", async () => {
    expect(Object.keys(sectionServer.jobs ?? {})).toContain(customerPayment.demoJob);
    const paid: [string, string][] = [];
    const platform = {
      baseUrl: "http://localhost",
      pay: async (id: string, lang: "en" | "ar") => void paid.push([id, lang]),
    };
    await seedDemoCollector(database.db, { merchantId: shop.merchantId, userId: shop.admin.id }, platform);
    await seedDemoCollector(database.db, { merchantId: shop.merchantId, userId: shop.admin.id }, platform);
    const collectors = await database.db
      .selectFrom("customer_payment_collectors")
      .select(["id", "title_en", "title_ar", "reference_field", "is_active"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(collectors).toEqual([
      {
        id: expect.any(Number),
        title_en: "Pay your invoice",
        title_ar: "ادفع فاتورتك",
        reference_field: "required",
        is_active: 1,
      },
    ]);
    const restrictions = await database.db
      .selectFrom("customer_payment_restrictions")
      .select(["collector_id", "gateways", "limits"])
      .where("merchant_id", "=", shop.merchantId)
      .execute();
    expect(restrictions).toEqual([
      {
        collector_id: null,
        gateways: "knet-sandbox,mpgs-sandbox",
        limits: JSON.stringify({ KWD: { min: 1000, max: 500000, daily_cap: 1000000 } }),
      },
    ]);
    const payments = await database.db
      .selectFrom("customer_payments")
      .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
      .select(["transactions.id", "transactions.plugin", "transactions.amount", "transactions.remarks"])
      .where("customer_payments.merchant_id", "=", shop.merchantId)
      .orderBy("transactions.order_no")
      .execute();
    expect(payments.map((payment) => [payment.plugin, payment.amount, payment.remarks])).toEqual([
      ["customer_payment", 35000, "المرجع: INV-2041"],
      ["customer_payment", 120750, "Reference: INV-2042"],
      ["customer_payment", 18500, "Reference: INV-2043"],
    ]);
    // Paid on the sandbox where it runs (the tests run it): the first two.
    expect(paid).toEqual([
      [payments[0].id, "ar"],
      [payments[1].id, "en"],
    ]);
  });

  it("made again after failing halfway, makes only the payments still missing", async () => {
    const merchant = await seedMerchant(database.db, "Resume");
    const payload = { merchantId: merchant.merchantId, userId: merchant.admin.id };
    // The first run stops after the first payment (the card sandbox is down for the second).
    let calls = 0;
    const failing = { baseUrl: "http://localhost", pay: async () => void calls++ };
    const realCount = async () =>
      (
        await database.db
          .selectFrom("customer_payments")
          .select("transaction_id")
          .where("merchant_id", "=", merchant.merchantId)
          .execute()
      ).length;
    await seedDemoCollector(database.db, payload, failing);
    const made = await database.db
      .selectFrom("customer_payments")
      .innerJoin("transactions", "transactions.id", "customer_payments.transaction_id")
      .select("customer_payments.transaction_id")
      .where("customer_payments.merchant_id", "=", merchant.merchantId)
      .orderBy("transactions.order_no")
      .execute();
    // Take the last two back out, as if the run had died after the first.
    for (const row of made.slice(1)) {
      await database.db.deleteFrom("customer_payments").where("transaction_id", "=", row.transaction_id).execute();
      await database.db.deleteFrom("audit_log").where("object_id", "=", row.transaction_id).execute();
      await database.db.deleteFrom("transactions").where("id", "=", row.transaction_id).execute();
    }
    expect(await realCount()).toBe(1);
    calls = 0;
    await seedDemoCollector(database.db, payload, failing);
    expect(await realCount()).toBe(3);
    // Only the second was paid again: the first had been made (and paid) by the first run.
    expect(calls).toBe(1);
    expect(
      await database.db
        .selectFrom("customer_payment_collectors")
        .select("id")
        .where("merchant_id", "=", merchant.merchantId)
        .execute(),
    ).toHaveLength(1);
  });

  it("stops with the reason when the merchant's restrictions cannot be saved, and makes no page", async () => {
    const merchant = await seedMerchant(database.db, "NoCard");
    await database.db
      .deleteFrom("gateways")
      .where("merchant_id", "=", merchant.merchantId)
      .where("code", "=", "mpgs-sandbox")
      .execute();
    const platform = { baseUrl: "http://localhost", pay: async () => undefined };
    await expect(
      seedDemoCollector(database.db, { merchantId: merchant.merchantId, userId: merchant.admin.id }, platform),
    ).rejects.toThrow(/demo collector restrictions/);
    expect(
      await database.db
        .selectFrom("customer_payment_collectors")
        .select("id")
        .where("merchant_id", "=", merchant.merchantId)
        .execute(),
    ).toEqual([]);
  });
});
