import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestShop, inventoryOf } from "../support/cshop-fixtures";

// The catalogue's public API (public spec §7, /plugins/catalogue): the shop's configuration, its
// products, stores and payment methods, a discount's effect, and checkout, which prices on the
// server, reserves units and answers 201 or a 400 naming the short line.

let database: TestDatabase;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;
let other: Awaited<ReturnType<typeof seedMerchant>>;

const API = "/api/v1/plugins/catalogue";

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Api");
  other = await seedMerchant(database.db, "Other");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
const checkoutBody = (items: { slug: string; quantity: number | string }[], extra: Record<string, unknown> = {}) => ({
  items,
  discount_code: "",
  customer_name: "Sara Ali",
  customer_email: "sara@example.com",
  customer_phone: "50001234",
  gateway_code: "knet-sandbox",
  ...extra,
});

describe("the catalogue's public API", () => {
  it("answers the shop's config, banner, products (paged and searched), a product by slug, its unit's header and the stores", async () => {
    const { products, storeId } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [
        { slug: "brass-dallah", name_en: "Brass dallah", name_ar: "دلة نحاسية", price: 18500, inventory: 8 },
        {
          slug: "saffron",
          name_en: "Saffron tin",
          name_ar: "زعفران",
          price: 12000,
          discounted_price: 9750,
          inventory: 0,
        },
        { slug: "hidden", price: 1000, is_active: 0 },
      ],
      store: true,
      settings: {
        show_banner: true,
        label_store_en: "Pick-up store",
        label_store_ar: "متجر الاستلام",
        terms_en: "Returns in 7 days.",
        terms_ar: "الإرجاع خلال 7 أيام.",
        banner: { title_en: "Gifts", title_ar: "هدايا" },
      },
    });
    const config = await json(
      await app.request(`${API}/config?merchant=${merchant.merchantId}`, { headers: { "Accept-Language": "ar" } }),
    );
    expect(config).toMatchObject({
      currency: "KWD",
      showBanner: true,
      label_store: "متجر الاستلام",
      decimal_places: 3,
      terms: "الإرجاع خلال 7 أيام.",
    });
    expect(await json(await app.request(`${API}/banner?merchant=${merchant.merchantId}&lang=en`))).toMatchObject({
      show_banner: true,
      title: "Gifts",
      title_ar: "هدايا",
    });

    const list = await json<{
      count: number;
      next: string | null;
      results: {
        slug: string;
        price: string;
        discounted_price: string | null;
        inventory: number | null;
        is_available: boolean;
      }[];
    }>(await app.request(`${API}/product?merchant=${merchant.merchantId}&limit=1`));
    expect(list.count).toBe(2);
    expect(list.results).toEqual([
      expect.objectContaining({
        slug: "brass-dallah",
        price: "18.500",
        discounted_price: null,
        inventory: 8,
        is_available: true,
      }),
    ]);
    expect(list.next).toContain("offset=1");
    const searched = await json<{ results: { slug: string }[] }>(
      await app.request(`${API}/product?merchant=${merchant.merchantId}&search=${encodeURIComponent("زعفر")}`),
    );
    expect(searched.results.map((product) => product.slug)).toEqual(["saffron"]);
    expect(await json(await app.request(`${API}/product/saffron?merchant=${merchant.merchantId}`))).toMatchObject({
      slug: "saffron",
      price: "12.000",
      discounted_price: "9.750",
      unit_price: "9.750",
      inventory: 0,
      is_available: false,
      currency_code: "KWD",
    });
    expect((await app.request(`${API}/product/hidden?merchant=${merchant.merchantId}`)).status).toBe(404);
    // Another merchant's shop does not show these products.
    expect((await app.request(`${API}/product/brass-dallah?merchant=${other.merchantId}`)).status).toBe(404);
    expect(
      await json(await app.request(`${API}/product/unit_config/brass-dallah?merchant=${merchant.merchantId}`)),
    ).toMatchObject({ unit_details: expect.objectContaining({ title_en: expect.any(String) }) });
    const stores = await json<{ id: number }[]>(
      await app.request(`${API}/stores?merchant=${merchant.merchantId}&product_slugs=brass-dallah,saffron`),
    );
    expect(stores.map((store) => store.id)).toContain(storeId);
    expect((await app.request(`${API}/stores?merchant=${merchant.merchantId}&product_slugs=nope`)).status).toBe(400);
    const preqs = await json<{
      products: { slug: string; found: boolean; inventory: number | null }[];
      pay_choices: { gateway_code: string }[];
      terms: string;
    }>(
      await app.request(`${API}/invoice/preqs?merchant=${merchant.merchantId}&product_slugs=brass-dallah,nope&lang=en`),
    );
    expect(preqs.products).toEqual([
      expect.objectContaining({ slug: "brass-dallah", found: true, inventory: 8 }),
      expect.objectContaining({ slug: "nope", found: false }),
    ]);
    expect(preqs.pay_choices.map((choice) => choice.gateway_code)).toContain("knet-sandbox");
    expect(preqs.pay_choices.map((choice) => choice.gateway_code)).not.toContain("cod");
    expect(preqs.terms).toBe("Returns in 7 days.");
    expect(products).toHaveLength(3);
  });

  it("answers 404 for a merchant without the catalogue section", async () => {
    await database.db
      .deleteFrom("merchant_plugins")
      .where("merchant_id", "=", other.merchantId)
      .where("plugin", "=", "catalogue")
      .execute();
    expect((await app.request(`${API}/config?merchant=${other.merchantId}`)).status).toBe(404);
    expect((await app.request(`/en/catalogue/product-list?merchant=${other.merchantId}`)).status).toBe(404);
  });

  it("prices a discount code and the pay choices from the shop's own prices", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ price: 10000, inventory: 3 }],
      discount: { amount: 1500, min_total: 5000 },
    });
    const slug = products[0].slug;
    const applied = await app.request(`${API}/invoice/discount?merchant=${merchant.merchantId}`, {
      json: { code: discountCode!.toLowerCase(), items: [{ slug, quantity: 2, price: "0.100" }] },
    });
    expect(await json(applied)).toEqual({
      code: discountCode,
      discount_type: "percentage",
      amount: "15.00",
      subtotal: "20.000",
      discount: "3.000",
      total: "17.000",
      currency_code: "KWD",
    });
    const tooSmall = await app.request(`${API}/invoice/discount?merchant=${merchant.merchantId}&lang=en`, {
      json: { code: discountCode, items: [] },
    });
    expect(tooSmall.status).toBe(400);
    expect(await json(tooSmall)).toEqual({ code: ["This discount code needs an order of at least KWD\u00a05.000."] });
    const unknown = await app.request(`${API}/invoice/discount?merchant=${merchant.merchantId}`, {
      json: { code: "NOPE", items: [{ slug, quantity: 1 }] },
      headers: { "Accept-Language": "ar" },
    });
    expect(await json(unknown)).toEqual({ code: ["رمز الخصم هذا غير موجود."] });
    const choices = await json<{ pay_choices: { gateway_code: string; base_amount: string }[] }>(
      await app.request(`${API}/pay-choices?merchant=${merchant.merchantId}`, {
        json: { items: [{ slug, quantity: 1 }], total: "0.001" },
      }),
    );
    expect(choices.pay_choices.length).toBeGreaterThan(0);
    for (const choice of choices.pay_choices) expect(choice.base_amount).toBe("10.000");
  });

  it("checks out: 201 with the pay link and the server's total; 400 naming the short line; a posted price is ignored", async () => {
    const { products, discountCode } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [
        { price: 2000, inventory: null },
        { price: 4500, discounted_price: 4000, inventory: 3 },
      ],
      discount: { amount: 500, discount_type: "fixed" },
    });
    const [plain, scarce] = products;
    const short = await app.request(`${API}/invoice/checkout?merchant=${merchant.merchantId}&lang=en`, {
      json: checkoutBody([
        { slug: plain.slug, quantity: 1 },
        { slug: scarce.slug, quantity: 5 },
      ]),
    });
    expect(short.status).toBe(400);
    expect(await json(short)).toEqual({ items: [{}, { quantity: ["Only 3 left"] }] });
    const invalid = await app.request(`${API}/invoice/checkout?merchant=${merchant.merchantId}&lang=en`, {
      json: { items: [{ slug: "", quantity: 0 }], customer_email: "nope" },
    });
    expect(invalid.status).toBe(400);
    expect(await json(invalid)).toMatchObject({
      items: [{ slug: ["This field is required"], quantity: ["Enter a quantity from 1 to 20."] }],
      customer_name: ["This field is required"],
      customer_email: ["Enter valid email address"],
      gateway_code: ["This field is required"],
    });

    const placed = await app.request(`${API}/invoice/checkout?merchant=${merchant.merchantId}`, {
      json: checkoutBody(
        [
          { slug: plain.slug, quantity: 1, price: "0.001" } as never,
          { slug: scarce.slug, quantity: 2, unit_price: "0.001" } as never,
        ],
        { discount_code: discountCode, total: "0.001", amount: "0.001" },
      ),
      headers: { "Idempotency-Key": "order-1" },
    });
    expect(placed.status).toBe(201);
    const body = await json<{
      id: number;
      number: string;
      checkout_url: string;
      total: string;
      transaction_id: string;
    }>(placed);
    // 2.000 + 2 × 4.000 − 0.500.
    expect(body).toMatchObject({
      id: expect.any(Number),
      checkout_url: expect.stringMatching(/\/en\/pay\/[A-Za-z0-9_-]+$/),
      total: "9.500",
    });
    expect(await inventoryOf(database.db, scarce.id)).toBe(1);
    // The same request again (a retry): the same answer, nothing reserved twice.
    const retried = await app.request(`${API}/invoice/checkout?merchant=${merchant.merchantId}`, {
      json: checkoutBody(
        [
          { slug: plain.slug, quantity: 1, price: "0.001" } as never,
          { slug: scarce.slug, quantity: 2, unit_price: "0.001" } as never,
        ],
        { discount_code: discountCode, total: "0.001", amount: "0.001" },
      ),
      headers: { "Idempotency-Key": "order-1" },
    });
    expect(retried.status).toBe(201);
    expect(await json(retried)).toEqual(body);
    expect(await inventoryOf(database.db, scarce.id)).toBe(1);
    // The pay page shows the order's total, and the transaction is the catalogue section's.
    const transaction = await database.db
      .selectFrom("transactions")
      .select(["plugin", "amount"])
      .where("id", "=", body.transaction_id)
      .executeTakeFirstOrThrow();
    expect(transaction).toEqual({ plugin: "catalogue", amount: 9500 });
    const payPage = await app.request(new URL(body.checkout_url).pathname);
    expect(payPage.status).toBe(200);
    expect(await payPage.text()).toContain("9.500");
  });

  it("sells the last 10 units to exactly 10 of 30 customers posting checkouts at once", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ price: 1000, inventory: 10 }],
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        app.request(`${API}/invoice/checkout?merchant=${merchant.merchantId}&lang=en`, {
          json: checkoutBody([{ slug: products[0].slug, quantity: 1 }], {
            customer_email: `racer${index}@example.com`,
          }),
          ip: `10.0.0.${index + 1}`,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(refused).toHaveLength(20);
    for (const answer of refused) expect(await json(answer)).toEqual({ items: [{ quantity: ["Sold out"] }] });
    expect(await inventoryOf(database.db, products[0].id)).toBe(0);
  });

  it("serves the product list without the router, the same page as the router's", async () => {
    await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ name_en: "Direct dallah", name_ar: "دلة مباشرة", price: 1000, inventory: 2 }],
    });
    for (const lang of ["en", "ar"]) {
      const path = `/${lang}/catalogue/product-list?merchant=${merchant.merchantId}&q=direct`;
      const direct = await app.requestSectionPage(path);
      const routed = await app.request(path);
      expect(direct?.status).toBe(200);
      const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0];
      const directHtml = await direct!.text();
      expect(main(directHtml)).toContain(lang === "ar" ? "دلة مباشرة" : "Direct dallah");
      expect(main(directHtml)).toBe(main(await routed.text()));
      expect(directHtml).not.toMatch(/<script[^>]*src=/);
    }
    // A merchant without a shop is left to the router, which answers 404.
    expect(await app.requestSectionPage(`/en/catalogue/product-list?merchant=${other.merchantId}`)).toBeNull();
  });
});
