import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestShop, inventoryOf } from "../support/cshop-fixtures";
import { nowIso } from "~/lib/clock.server";

// The shop's pages and API with JavaScript off, around what a checkout holds: a customer who goes
// back after checking out still sees their cart and checks out again; checkouts and discount codes
// are throttled per address, on the page as on the API; an order totalling nothing is refused; the
// Apply button keeps what was typed; staff read the store and the order's status; a paused
// merchant's shop is closed.

let database: TestDatabase;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;

const API = "/api/v1/plugins/catalogue";

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Holds");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

/** A browser with JavaScript off at one address: its cookies, plain GETs and form posts, redirects not followed. */
function browser(ip: string) {
  const jar: Record<string, string> = {};
  const keep = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const at = pair.indexOf("=");
      jar[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return response;
  };
  const cookie = () =>
    Object.entries(jar)
      .map(([name, value]) => `${name}=${value}`)
      .join("; ") || null;
  return {
    get: async (path: string) => keep(await app.request(path, { cookie: cookie(), ip })),
    post: async (path: string, form: Record<string, string>) =>
      keep(await app.request(path, { form, cookie: cookie(), ip })),
  };
}

const q = () => `?merchant=${merchant.merchantId}`;
const details = {
  customer_name: "Noura",
  customer_email: "noura@example.com",
  customer_phone: "",
  gateway_code: "knet-sandbox",
  accept_terms: "on",
};
const payPathOf = (response: Response) => new URL(response.headers.get("Location")!, "http://localhost").pathname;

/** Fills an address's throttle bucket as if it had already tried `count` times just now. */
async function fillBucket(bucket: string, count: number) {
  const at = nowIso();
  await database.db
    .insertInto("throttle_hits")
    .values(Array.from({ length: count }, () => ({ bucket, hit_at: at })))
    .execute();
}

describe("the visitor's own hold", () => {
  it("5 left, 3 checked out: back on the cart it still holds 3, and checking out again ends the first order without holding twice", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "rose-water", name_en: "Rose water", name_ar: "ماء ورد", price: 2500, inventory: 5 }],
    });
    const customer = browser("198.51.100.1");
    expect((await customer.post(`/en/catalogue/product-detail/rose-water${q()}`, { quantity: "3" })).status).toBe(303);
    const first = await customer.post(`/en/catalogue/checkout${q()}`, { intent: "place", ...details });
    expect(first.status).toBe(303);
    expect(await inventoryOf(database.db, products[0].id)).toBe(2);
    // The customer goes back: the cart is not lowered to the 2 others may buy.
    const cart = await (await customer.get(`/en/catalogue/cart${q()}`)).text();
    expect(cart).toContain("3 × Rose water");
    expect(cart).not.toContain("Only 2 left");
    const checkoutPage = await (await customer.get(`/en/catalogue/checkout${q()}`)).text();
    expect(checkoutPage).not.toContain("Only 2 left");
    expect(checkoutPage).not.toMatch(/<button[^>]*disabled[^>]*value="place"|<button[^>]*value="place"[^>]*disabled/);
    // Raising the quantity to what the shop and their own hold allow works too.
    await customer.post(`/en/catalogue/cart${q()}`, { intent: "quantity", slug: "rose-water", quantity: "5" });
    expect(await (await customer.get(`/en/catalogue/cart${q()}`)).text()).toContain("5 × Rose water");
    await customer.post(`/en/catalogue/cart${q()}`, { intent: "quantity", slug: "rose-water", quantity: "3" });
    const second = await customer.post(`/en/catalogue/checkout${q()}`, { intent: "place", ...details });
    expect(second.status).toBe(303);
    expect(payPathOf(second)).not.toBe(payPathOf(first));
    expect(await inventoryOf(database.db, products[0].id)).toBe(2);
    const orders = await database.db
      .selectFrom("catalogue_orders")
      .innerJoin("catalogue_order_lines", "catalogue_order_lines.order_id", "catalogue_orders.id")
      .select(["catalogue_orders.status", "catalogue_orders.holds_stock"])
      .where("catalogue_order_lines.product_id", "=", products[0].id)
      .orderBy("catalogue_orders.id")
      .execute();
    expect(orders).toEqual([
      { status: "canceled", holds_stock: 0 },
      { status: "pending_payment", holds_stock: 1 },
    ]);
    // The first link can no longer be paid.
    const firstTransaction = payPathOf(first).split("/").pop()!;
    expect(
      (
        await database.db
          .selectFrom("transactions")
          .select("state")
          .where("id", "=", firstTransaction)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe("expired");
  });

  it("caps a line at 20 units on the page, saying so", async () => {
    await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "oud-chips", name_en: "Oud chips", name_ar: "رقائق عود", price: 1000, inventory: null }],
    });
    const customer = browser("198.51.100.2");
    const tooMany = await customer.post(`/en/catalogue/product-detail/oud-chips${q()}`, { quantity: "21" });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain("Enter a quantity from 1 to 20.");
    await customer.post(`/en/catalogue/product-detail/oud-chips${q()}`, { quantity: "2" });
    const raised = await customer.post(`/en/catalogue/cart${q()}`, {
      intent: "quantity",
      slug: "oud-chips",
      quantity: "500",
    });
    const cart = await (
      await customer.get(
        new URL(raised.headers.get("Location")!, "http://localhost").pathname +
          new URL(raised.headers.get("Location")!, "http://localhost").search,
      )
    ).text();
    expect(cart).toContain("20 × Oud chips");
    expect(cart).toContain("At most 20 of a product per order.");
  });
});

describe("throttles", () => {
  it("puts the page's checkouts in the API's bucket per address", async () => {
    await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "date-box", name_en: "Date box", name_ar: "علبة تمر", price: 4000, inventory: 50 }],
    });
    const customer = browser("198.51.100.3");
    await customer.post(`/en/catalogue/product-detail/date-box${q()}`, { quantity: "1" });
    await fillBucket("catalogue-checkout:198.51.100.3", 120);
    const refused = await customer.post(`/en/catalogue/checkout${q()}`, { intent: "place", ...details });
    expect(refused.status).toBe(429);
    const html = await refused.text();
    expect(html).toContain("Too many orders from this address; try again in a few minutes.");
    expect(html).toContain('value="Noura"');
    const api = await app.request(`${API}/invoice/checkout${q()}&lang=en`, {
      json: { items: [{ slug: "date-box", quantity: 1 }], ...details },
      ip: "198.51.100.3",
    });
    expect(api.status).toBe(429);
    // Another address checks out.
    const other = browser("198.51.100.4");
    await other.post(`/en/catalogue/product-detail/date-box${q()}`, { quantity: "1" });
    expect((await other.post(`/en/catalogue/checkout${q()}`, { intent: "place", ...details })).status).toBe(303);
  });

  it("counts discount codes tried per address on the page and the API, and tells an inactive code as an unknown one", async () => {
    const { discountCode } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "incense", name_en: "Incense", name_ar: "بخور", price: 3000, inventory: 50 }],
      discount: { code: "SLEEPING", amount: 1000 },
    });
    await database.db.updateTable("offer_codes").set({ is_active: 0 }).where("code", "=", discountCode!).execute();
    const unknown = await app.request(`${API}/invoice/discount${q()}&lang=en`, {
      json: { code: "NOSUCH", items: [{ slug: "incense", quantity: 1 }] },
      ip: "198.51.100.5",
    });
    const inactive = await app.request(`${API}/invoice/discount${q()}&lang=en`, {
      json: { code: "sleeping", items: [{ slug: "incense", quantity: 1 }] },
      ip: "198.51.100.5",
    });
    expect(unknown.status).toBe(400);
    expect(await inactive.json()).toEqual(await unknown.json());

    const customer = browser("198.51.100.6");
    await customer.post(`/en/catalogue/product-detail/incense${q()}`, { quantity: "1" });
    const pageInactive = await (
      await customer.post(`/en/catalogue/checkout${q()}`, { intent: "discount", discount_code: "SLEEPING" })
    ).text();
    expect(pageInactive).toContain("This discount code does not exist.");
    await fillBucket("catalogue-discount:198.51.100.6", 30);
    const throttled = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "discount",
      discount_code: "GUESS1",
      customer_name: "Noura",
    });
    expect(throttled.status).toBe(429);
    const html = await throttled.text();
    expect(html).toContain("Too many discount codes tried from this address; try again in a few minutes.");
    expect(html).toContain('value="GUESS1"');
    const api = await app.request(`${API}/invoice/discount${q()}&lang=ar`, {
      json: { code: "GUESS2", items: [{ slug: "incense", quantity: 1 }] },
      ip: "198.51.100.6",
    });
    expect(api.status).toBe(429);
    expect(await api.json()).toEqual({
      detail: "محاولات كثيرة لرموز الخصم من هذا العنوان؛ حاول مرة أخرى بعد بضع دقائق.",
    });
    // A checkout carrying a code is a try too; one without is not.
    const withCode = await app.request(`${API}/invoice/checkout${q()}&lang=en`, {
      json: { items: [{ slug: "incense", quantity: 1 }], ...details, discount_code: "GUESS3" },
      ip: "198.51.100.6",
    });
    expect(withCode.status).toBe(429);
    const without = await app.request(`${API}/invoice/checkout${q()}&lang=en`, {
      json: { items: [{ slug: "incense", quantity: 1 }], ...details },
      ip: "198.51.100.6",
    });
    expect(without.status).toBe(201);
  });
});

describe("what an order costs", () => {
  it("refuses a code that takes the whole total, on the page (under the code) and on the API", async () => {
    const { discountCode } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "kohl-pot", name_en: "Kohl pot", name_ar: "مكحلة", price: 2000, inventory: 5 }],
      discount: { code: "ALLFREE", amount: 10000 },
    });
    const customer = browser("198.51.100.7");
    await customer.post(`/en/catalogue/product-detail/kohl-pot${q()}`, { quantity: "1" });
    const applied = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "discount",
      discount_code: discountCode!,
    });
    expect(applied.status).toBe(400);
    expect(await applied.text()).toContain(
      "This discount code would leave nothing to pay: it cannot be used on this order.",
    );
    const placed = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "place",
      ...details,
      discount_code: discountCode!,
    });
    expect(placed.status).toBe(400);
    expect(await placed.text()).toContain("This discount code would leave nothing to pay");
    const api = await app.request(`${API}/invoice/checkout${q()}&lang=en`, {
      json: { items: [{ slug: "kohl-pot", quantity: 1 }], ...details, discount_code: discountCode },
      ip: "198.51.100.8",
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({
      discount_code: ["This discount code would leave nothing to pay: it cannot be used on this order."],
    });
    const priced = await app.request(`${API}/invoice/discount${q()}&lang=en`, {
      json: { code: discountCode, items: [{ slug: "kohl-pot", quantity: 1 }] },
      ip: "198.51.100.8",
    });
    expect(priced.status).toBe(400);
  });

  it("refuses an order of products priced 0 on the API, naming the lines", async () => {
    await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "free-sample", name_en: "Free sample", name_ar: "عينة مجانية", price: 0, inventory: 5 }],
    });
    const api = await app.request(`${API}/invoice/checkout${q()}&lang=en`, {
      json: { items: [{ slug: "free-sample", quantity: 1 }], ...details },
      ip: "198.51.100.9",
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ items: ["An order must cost more than zero."] });
  });
});

describe("the Apply button with JavaScript off", () => {
  it("applies the code and keeps what the customer typed", async () => {
    await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "mabkhara", name_en: "Mabkhara", name_ar: "مبخرة", price: 10000, inventory: 5 }],
      discount: { code: "TENOFF", amount: 1000 },
    });
    const customer = browser("198.51.100.10");
    await customer.post(`/en/catalogue/product-detail/mabkhara${q()}`, { quantity: "1" });
    const applied = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "discount",
      discount_code: "tenoff",
      customer_name: "Fahad Salem",
      customer_email: "fahad@example.com",
      customer_phone: "50001234",
    });
    expect(applied.status).toBe(200);
    const html = await applied.text();
    expect(html).toContain('value="Fahad Salem"');
    expect(html).toContain('value="fahad@example.com"');
    expect(html).toContain('value="50001234"');
    // 10.000, 10 % off.
    expect(html).toContain("9.000");
  });
});

describe("what staff read", () => {
  it("shows the store to collect from and the order's status on the transaction's page and API", async () => {
    const { storeId } = await createTestShop(database.db, {
      merchantId: merchant.merchantId,
      products: [{ slug: "sadu-bag", name_en: "Sadu bag", name_ar: "حقيبة سدو", price: 7000, inventory: 5 }],
      store: true,
    });
    const store = await database.db
      .selectFrom("catalogue_stores")
      .select(["name_en", "address_en"])
      .where("id", "=", storeId!)
      .executeTakeFirstOrThrow();
    const placed = await app.request(`${API}/invoice/checkout${q()}&lang=en`, {
      json: { items: [{ slug: "sadu-bag", quantity: 1 }], ...details, store: storeId },
      ip: "198.51.100.11",
    });
    expect(placed.status).toBe(201);
    const { transaction_id: transactionId } = (await placed.json()) as { transaction_id: string };
    const session = await app.signIn(merchant.admin.username, DEMO_PASSWORD);
    const page = await (await app.request(`/en/catalogue/transactions/${transactionId}`, { cookie: session })).text();
    expect(page).toContain(`${store.name_en} — ${store.address_en}`);
    expect(page).toContain("Waiting for payment");
    // The order's rows are the section's, not the stored JSON again.
    expect(page).not.toContain("address_en");
    const { access } = await app.apiToken(merchant.admin.username, DEMO_PASSWORD);
    const answer = await app.request(`${API}/transaction/details/${transactionId}/`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body.catalogue_order).toMatchObject({
      status: "pending_payment",
      paid_without_stock: false,
      store: { id: storeId, name_en: store.name_en, address_en: store.address_en },
    });
  });
});

describe("a paused merchant", () => {
  it("has no shop: pages and API answer 404", async () => {
    const paused = await seedMerchant(database.db, "PausedShop");
    await createTestShop(database.db, {
      merchantId: paused.merchantId,
      products: [{ slug: "paused-thing", price: 1000, inventory: 5 }],
    });
    expect((await app.request(`/en/catalogue/product-list?merchant=${paused.merchantId}`)).status).toBe(200);
    await database.db.updateTable("merchants").set({ is_active: 0 }).where("id", "=", paused.merchantId).execute();
    expect((await app.request(`/en/catalogue/product-list?merchant=${paused.merchantId}`)).status).toBe(404);
    expect((await app.request(`/en/catalogue/checkout?merchant=${paused.merchantId}`)).status).toBe(404);
    const api = await app.request(`${API}/invoice/checkout?merchant=${paused.merchantId}&lang=en`, {
      json: { items: [{ slug: "paused-thing", quantity: 1 }], ...details },
      ip: "198.51.100.12",
    });
    expect(api.status).toBe(404);
  });
});
