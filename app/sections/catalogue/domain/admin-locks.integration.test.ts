import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedMerchant } from "../../../../tests/support/fixtures";
import { insertCatalogueOrder, insertCatalogueProduct } from "../../../../tests/support/cadmin-fixtures";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database";
import { wirePlatform } from "~/boot/wiring.server";
import { lockMerchant, writeTransaction, type DB } from "~/db/database.server";
import { deleteDiscount, saveDiscount } from "./discounts-admin.server";
import { deleteProduct, saveProduct } from "./products-admin.server";
import { saveCatalogueSettings } from "./settings.server";

// The management's checks hold until its writes: two tabs adding pictures, a settings save and a
// product save, a checkout and a delete meet under the merchant's lock (the checkout's own), so
// none of them lands between another's look and write.

let database: TestDatabase;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
const actor = { id: 1, username: "owner" };

beforeAll(async () => {
  database = await createTestDatabase();
  await wirePlatform();
  shop = await seedMerchant(database.db, "Shop");
});
afterAll(async () => {
  await database?.destroy();
});

/**
 * Runs `other` while a transaction holds the merchant's lock (as a checkout or a settings save
 * does) and has done `work`; lets it commit a moment later. Answers what `other` answered.
 */
async function whileLocked<T>(work: (trx: DB) => Promise<unknown>, other: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const holder = writeTransaction(database.db, async (trx) => {
    await lockMerchant(trx, shop.merchantId);
    await work(trx);
    held();
    await released;
  });
  await holding;
  const answer = other();
  // The other side reaches its lock (or, unlocked, its writes) meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await holder;
  return answer;
}

const imageKey = (index: number) => `catalogue/${shop.merchantId}/product-tab${String(index).padStart(9, "0")}.png`;

describe("the checks of the shop's management, under the merchant's lock", () => {
  it("lets two tabs adding three pictures each to one product keep five at most", async () => {
    const id = await insertCatalogueProduct(database.db, shop.merchantId, { slug: "two-tabs", price: 1000 });
    const tab = (from: number) =>
      saveProduct(database.db, {
        merchantId: shop.merchantId,
        actor,
        id,
        input: {},
        addedImages: [imageKey(from), imageKey(from + 1), imageKey(from + 2)],
      });
    const answers = await Promise.all([tab(1), tab(4)]);
    expect(answers.map((answer) => answer.ok).sort()).toEqual([false, true]);
    const refused = answers.find((answer) => !answer.ok);
    expect(refused && !refused.ok && refused.errors.images).toEqual([
      { code: "catalogue_admin.errors.too_many_images", params: { max: 5 } },
    ]);
    expect(
      await database.db.selectFrom("catalogue_product_images").select("id").where("product_id", "=", id).execute(),
    ).toHaveLength(3);
  });

  it("checks a price against the decimals a settings save made meanwhile", async () => {
    const answer = await whileLocked(
      // A settings save's write: the shop now shows two decimals.
      (trx) => {
        const row = {
          data: JSON.stringify({ currency: "KWD", decimal_places: 2 }),
          updated_at: new Date().toISOString(),
        };
        return trx
          .insertInto("catalogue_settings")
          .values({ merchant_id: shop.merchantId, ...row })
          .onConflict((conflict) => conflict.column("merchant_id").doUpdateSet(row))
          .execute();
      },
      () =>
        saveProduct(database.db, {
          merchantId: shop.merchantId,
          actor,
          input: { slug: "fils", name_en: "Fils", name_ar: "فلس", price: "1.255" },
        }),
    );
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.errors.price).toEqual([
      { code: "catalogue_admin.errors.decimals", params: { places: 2 } },
    ]);
    expect(
      await database.db.selectFrom("catalogue_products").select("id").where("slug", "=", "fils").execute(),
    ).toEqual([]);
    expect(
      (
        await saveCatalogueSettings(database.db, {
          merchantId: shop.merchantId,
          actor,
          input: { decimal_places: null },
          currencies: ["KWD"],
          defaultCurrency: "KWD",
        })
      ).ok,
    ).toBe(true);
  });

  it("only deactivates a product a checkout ordered while it was being deleted", async () => {
    const id = await insertCatalogueProduct(database.db, shop.merchantId, { slug: "raced", price: 1000 });
    const answer = await whileLocked(
      (trx) => insertCatalogueOrder(trx, shop.merchantId, { productId: id }),
      () => deleteProduct(database.db, { merchantId: shop.merchantId, actor, id }),
    );
    expect(answer).toEqual({ ok: true, deactivated: true });
    expect(
      (
        await database.db
          .selectFrom("catalogue_products")
          .select("is_active")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).is_active,
    ).toBe(0);
  });

  it("only deactivates a discount a checkout used while it was being deleted", async () => {
    const productId = await insertCatalogueProduct(database.db, shop.merchantId, { slug: "with-code", price: 1000 });
    const created = await saveDiscount(database.db, {
      merchantId: shop.merchantId,
      actor,
      input: { code: "RACE", discount_type: "percentage", amount: "10" },
    });
    if (!created.ok) throw new Error("discount not created");
    const answer = await whileLocked(
      (trx) => insertCatalogueOrder(trx, shop.merchantId, { productId, discountId: created.value.id }),
      () => deleteDiscount(database.db, { merchantId: shop.merchantId, actor, id: created.value.id }),
    );
    expect(answer).toEqual({ ok: true, deactivated: true });
    expect(
      (
        await database.db
          .selectFrom("offer_codes")
          .select("is_active")
          .where("id", "=", created.value.id)
          .executeTakeFirstOrThrow()
      ).is_active,
    ).toBe(0);
  });
});
