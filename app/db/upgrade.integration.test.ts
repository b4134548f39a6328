import { sql, type Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { PaymentRequestSchema } from "~/sections/payment-request/domain/payment-request-schema";
import { createPaymentRequest } from "~/sections/payment-request/domain/payment-requests.server";
import { insertCatalogueOrder } from "../../tests/support/cadmin-fixtures";
import { createCheckoutSession } from "../../tests/support/checkout-session-fixtures";
import { createTestCollector } from "../../tests/support/collect-fixtures";
import { createTestShop } from "../../tests/support/cshop-fixtures";
import { insertCheckinBooking, insertCheckinEvent } from "../../tests/support/event-fixtures-checkin";
import { insertTicketedEvent } from "../../tests/support/event-fixtures-tickets";
import { seedMerchant } from "../../tests/support/fixtures";
import { insertFoodOrder, insertOrdersMenu } from "../../tests/support/food-fixtures-forders";
import { createTestMenu } from "../../tests/support/food-fixtures-fpublic";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { MIGRATION_NAMES, migrateToLatest } from "./migrate.server";

/**
 * An installation at an older schema, with data in every section, upgraded to the newest: every row
 * of every table it had is still there, as it was. The data is written by today's code, so the older
 * schema is the oldest today's seeding can write to (the Mastercard Gateway sandbox's books, 0039).
 */
const OLDER = "0039-mastercard-gateway";
let database: TestDatabase;
afterAll(async () => database?.destroy());

/** Every row of every table, by table, each row as it was written (ordered by its first column). */
async function snapshot(db: Kysely<any>) {
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  const rows: Record<string, Record<string, unknown>[]> = {};
  for (const table of tables)
    rows[table] = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by 1`.execute(db)).rows;
  return rows;
}

describe("upgrading an older installation", () => {
  it("keeps every row of every section when it migrates to the newest schema", async () => {
    database = await createTestDatabase({ upTo: OLDER });
    const db = database.db;
    const shop = await seedMerchant(db, "Upgrade");
    const merchantId = shop.merchantId;
    // Payment requests (and the core: merchant, users, units, gateways).
    const paid = await createPaymentRequest(db, {
      merchantId,
      user: shop.admin,
      request: PaymentRequestSchema.parse({
        amount: "30.250",
        pg_codes: "knet-sandbox,mpgs-sandbox",
        customer_first_name: "Fatima",
        description: "Before the upgrade",
      }),
      baseUrl: "http://localhost",
      lang: "en",
    });
    if (!paid.ok) throw new Error("payment request refused");
    // Events, food ordering, the catalogue, customer payments (collectors), checkout sessions (e-commerce).
    await insertTicketedEvent(db, merchantId, { free: false, places: 10 });
    await insertCheckinBooking(db, merchantId, await insertCheckinEvent(db, merchantId), { quantity: 2 });
    await createTestMenu(db, { merchantId });
    await insertFoodOrder(db, merchantId, await insertOrdersMenu(db, merchantId), { transaction: true });
    const catalogue = await createTestShop(db, { merchantId, products: [{ price: 5000, inventory: 3 }], store: true });
    await insertCatalogueOrder(db, merchantId, { productId: catalogue.products[0].id });
    await createTestCollector(db, { merchantId });
    await createCheckoutSession(db, { merchantId, userId: shop.admin.id, amount: 12_000, orderNo: "SHOP-1" });

    const before = await snapshot(db);
    // Each section's own tables hold rows, not only the core's.
    for (const table of [
      "transactions",
      "events",
      "bookings",
      "food_items",
      "food_orders",
      "catalogue_products",
      "catalogue_orders",
      "customer_payment_collectors",
      "checkout_sessions",
    ]) {
      expect(before[table].length, table).toBeGreaterThan(0);
    }

    expect(await migrateToLatest(db)).toEqual(MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf(OLDER) + 1));
    const after = await snapshot(db);
    for (const [table, rows] of Object.entries(before)) {
      // A newer migration may add columns; the ones the rows had keep their values.
      const kept = after[table].map((row) =>
        Object.fromEntries(Object.keys(rows[0] ?? {}).map((column) => [column, row[column]])),
      );
      expect(kept, table).toEqual(rows);
    }
    const payment = await db
      .selectFrom("transactions")
      .select(["amount", "state", "merchant_id"])
      .where("id", "=", paid.transaction.id)
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({ amount: 30_250, state: "created", merchant_id: merchantId });
  }, 60_000);
});
