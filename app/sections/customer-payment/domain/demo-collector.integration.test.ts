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
    const platform = { baseUrl: "http://localhost", pay: async (id: string, lang: "en" | "ar") => void paid.push([id, lang]) };
    await seedDemoCollector(database.db, { merchantId: shop.merchantId, userId: shop.admin.id }, platform);
    await seedDemoCollector(database.db, { merchantId: shop.merchantId, userId: shop.admin.id }, platform);
    const collectors = await database.db.selectFrom("customer_payment_collectors").select(["id", "title_en", "title_ar", "reference_field", "is_active"]).where("merchant_id", "=", shop.merchantId).execute();
    expect(collectors).toEqual([{ id: expect.any(Number), title_en: "Pay your invoice", title_ar: "ادفع فاتورتك", reference_field: "required", is_active: 1 }]);
    const restrictions = await database.db.selectFrom("customer_payment_restrictions").select(["collector_id", "gateways", "limits"]).where("merchant_id", "=", shop.merchantId).execute();
    expect(restrictions).toEqual([{ collector_id: null, gateways: "knet-sandbox,card-sandbox", limits: JSON.stringify({ KWD: { min: 1000, max: 500000, daily_cap: 1000000 } }) }]);
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
});
