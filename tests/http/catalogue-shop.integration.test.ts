import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { startHttpServer, type TestHttpServer } from "../support/http-server";
import { createTestShop, inventoryOf } from "../support/cshop-fixtures";

// A customer shops with JavaScript off, through plain forms and a cart held on the server: the
// list, a product, the cart (never more than is left), checkout with a discount code, the pay page
// and the card sandbox. A paid order empties the cart and shows its lines to the merchant's staff;
// a declined payment keeps its units held while the link may be paid again.

let database: TestDatabase;
let server: TestHttpServer;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;
let shop: Awaited<ReturnType<typeof createTestShop>>;

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Souq");
  shop = await createTestShop(database.db, {
    merchantId: merchant.merchantId,
    products: [
      { slug: "brass-dallah", name_en: "Brass dallah", name_ar: "دلة نحاسية", price: 18500, inventory: 5 },
      {
        slug: "saffron",
        name_en: "Saffron tin",
        name_ar: "علبة زعفران",
        price: 12000,
        discounted_price: 9750,
        inventory: null,
      },
      { slug: "sadu-cushion", name_en: "Sadu cushion", name_ar: "وسادة سدو", price: 9000, inventory: 0 },
    ],
    discount: { code: "WELCOME10", amount: 1000 },
    store: true,
    settings: {
      show_banner: true,
      terms_en: "Returns within 7 days.",
      terms_ar: "الإرجاع خلال 7 أيام.",
      banner: { title_en: "Gifts from Kuwait", title_ar: "هدايا من الكويت" },
    },
  });
  server = await startHttpServer({ ...database.env, SEED_DEMO: "0" });
});

afterAll(async () => {
  await server?.close();
  await database?.destroy();
  vi.restoreAllMocks();
});

/** A browser with JavaScript off: its cookies, plain GETs and form posts, redirects not followed. */
function browser() {
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
      .join("; ");
  return {
    get: async (path: string) =>
      keep(await fetch(new URL(path, server.url), { headers: { Cookie: cookie() }, redirect: "manual" })),
    post: async (path: string, form: Record<string, string>) =>
      keep(
        await fetch(new URL(path, server.url), {
          method: "POST",
          headers: { Cookie: cookie(), Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
          redirect: "manual",
        }),
      ),
  };
}

const q = () => `?merchant=${merchant.merchantId}`;
const locationOf = (response: Response) => new URL(response.headers.get("Location")!, server.url);

/** The pay page's Pay Now with the card sandbox, the card on its hosted page, and the return; the result page's HTML. */
async function payByCard(customer: ReturnType<typeof browser>, payPath: string, card: string) {
  const payNow = await customer.post(payPath, {
    gateway_code: "mpgs-sandbox",
    submission_token: `${payPath}-${Math.random()}`,
  });
  expect(payNow.status).toBe(303);
  const cardPage = await fetch(locationOf(payNow), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: card, expiry: "01/39", cvv: "123" }),
    redirect: "manual",
  });
  expect(cardPage.status).toBe(303);
  let response = await customer.get(locationOf(cardPage).toString());
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops++)
    response = await customer.get(locationOf(response).toString());
  expect(response.status).toBe(200);
  return response.text();
}

describe("the catalogue shop, with JavaScript off", () => {
  it("lists the products with the banner, discounted and sold-out ones marked, searchable, in both languages, with no script", async () => {
    const customer = browser();
    const page = await customer.get(`/en/catalogue/product-list${q()}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Gifts from Kuwait");
    expect(html).toContain("Brass dallah");
    expect(html).toMatch(/9\.750[^<]*<del>[^<]*12\.000/);
    expect(html).toContain("Sold out");
    expect(html).not.toMatch(/<script[^>]*src=/);
    const arabic = await (await customer.get(`/ar/catalogue/product-list${q()}`)).text();
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain("دلة نحاسية");
    expect(arabic).toContain("نفدت الكمية");
    const searched = await (await customer.get(`/en/catalogue/product-list${q()}&q=saffron`)).text();
    expect(searched).toContain("Saffron tin");
    expect(searched).not.toContain("Brass dallah");
    expect((await customer.get(`/en/catalogue/product-detail/no-such-thing${q()}`)).status).toBe(404);
  });

  it("adds to the cart, opens the cart for a product already in it, keeps quantities within what is left, checks out and pays; the cart is then empty and staff see the lines", async () => {
    const customer = browser();
    const dallah = shop.products[0];
    // A sold-out product cannot be added.
    const soldOut = await customer.post(`/en/catalogue/product-detail/sadu-cushion${q()}`, { quantity: "1" });
    expect(soldOut.status).toBe(400);
    expect(await soldOut.text()).toContain("Sold out");

    const added = await customer.post(`/en/catalogue/product-detail/brass-dallah${q()}`, { quantity: "2" });
    expect(added.status).toBe(303);
    expect(locationOf(added).searchParams.get("added")).toBe("1");
    expect(await (await customer.get(locationOf(added).pathname + locationOf(added).search)).text()).toContain(
      "Added to your cart.",
    );
    // The same product again: the cart opens, nothing is added.
    const again = await customer.post(`/en/catalogue/product-detail/brass-dallah${q()}`, { quantity: "1" });
    expect(again.status).toBe(303);
    expect(locationOf(again).pathname).toBe("/en/catalogue/cart");
    const cart = await (await customer.get(locationOf(again).pathname + locationOf(again).search)).text();
    expect(cart).toContain("This product is already in your cart");
    expect(cart).toContain("2 × Brass dallah");
    // Asking for more than is left holds what is left.
    const tooMany = await customer.post(`/en/catalogue/cart${q()}`, {
      intent: "quantity",
      slug: "brass-dallah",
      quantity: "50",
    });
    expect(locationOf(tooMany).searchParams.get("limited")).toBe("5");
    expect(await (await customer.get(`/en/catalogue/cart${q()}`)).text()).toContain("5 × Brass dallah");
    await customer.post(`/en/catalogue/cart${q()}`, { intent: "quantity", slug: "brass-dallah", quantity: "2" });
    await customer.post(`/en/catalogue/product-detail/saffron${q()}`, { quantity: "1" });

    // Checkout: errors under their fields, what was typed kept.
    const checkoutPage = await (await customer.get(`/en/catalogue/checkout${q()}`)).text();
    expect(checkoutPage).toContain("Returns within 7 days.");
    expect(checkoutPage).toContain(`value="${shop.storeId}"`);
    const wrong = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "place",
      customer_name: "Noura",
      customer_email: "not-an-email",
      customer_phone: "",
      gateway_code: "mpgs-sandbox",
      discount_code: "",
    });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("Enter valid email address");
    expect(wrongHtml).toContain('value="Noura"');
    const noTerms = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "place",
      customer_name: "Noura",
      customer_email: "noura@example.com",
      gateway_code: "mpgs-sandbox",
      discount_code: "WRONG",
    });
    expect(noTerms.status).toBe(400);
    const noTermsHtml = await noTerms.text();
    expect(noTermsHtml).toContain("This discount code does not exist.");
    expect(noTermsHtml).toContain('value="WRONG"');
    const applied = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "discount",
      discount_code: "welcome10",
    });
    expect(applied.status).toBe(200);
    // 2 × 18.500 + 9.750 = 46.750; 10 % off = 42.075.
    expect(await (await customer.get(`/en/catalogue/checkout${q()}`)).text()).toContain("42.075");

    const placed = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "place",
      customer_name: "Noura",
      customer_email: "noura@example.com",
      customer_phone: "50001234",
      gateway_code: "mpgs-sandbox",
      discount_code: "welcome10",
      store: String(shop.storeId),
      accept_terms: "on",
      total: "0.001",
    });
    expect(placed.status).toBe(303);
    const payPath = locationOf(placed).pathname;
    expect(payPath).toMatch(/^\/en\/pay\/[A-Za-z0-9_-]+$/);
    expect(await inventoryOf(database.db, dallah.id)).toBe(3);
    const transactionId = payPath.split("/").pop()!;
    expect(
      await database.db
        .selectFrom("transactions")
        .select("amount")
        .where("id", "=", transactionId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ amount: 42075 });
    // Until it is paid the cart keeps its lines and points to the payment.
    const waiting = await (await customer.get(`/en/catalogue/cart${q()}`)).text();
    expect(waiting).toContain("is waiting for its payment");
    expect(waiting).toContain("2 × Brass dallah");

    const result = await payByCard(customer, payPath, "5123450000000008");
    expect(result).toContain("/en/catalogue/cart?merchant=");
    expect(await inventoryOf(database.db, dallah.id)).toBe(3);
    const order = await database.db
      .selectFrom("catalogue_orders")
      .select(["number", "order_no", "status"])
      .where("transaction_id", "=", transactionId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("paid");
    const emptied = await (await customer.get(`/en/catalogue/cart${q()}`)).text();
    expect(emptied).toContain("Your cart is empty.");
    // The order is named by its transaction's order number, not by the key its links carry.
    expect(emptied).toContain(`Order #${order.order_no}<`);
    expect(emptied).not.toContain(`Order ${order.number}`);
    expect(emptied).toContain("Paid: thank you for your order!");
    expect(await (await customer.get(`/en/catalogue/product-list${q()}`)).text()).toContain("Cart (0)");

    // The merchant's staff see the order's lines on the catalogue transaction.
    const login = await fetch(`${server.url}/en/login`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "login", username: merchant.admin.username, password: DEMO_PASSWORD }),
      redirect: "manual",
    });
    const session = login.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .find((pair) => pair.startsWith("kp_session="))!;
    const details = await fetch(`${server.url}/en/catalogue/transactions/${transactionId}`, {
      headers: { Cookie: session },
    });
    expect(details.status).toBe(200);
    const detailsHtml = await details.text();
    expect(detailsHtml).toContain("2 × Brass dallah");
    expect(detailsHtml).toContain("1 × Saffron tin");
    expect(detailsHtml).toMatch(new RegExp(`Shop order[\\s\\S]{0,200}>#(<!-- -->)?${order.order_no}<`));
  });

  it("keeps the units held when the card is declined, and the customer pays on a second try", async () => {
    const customer = browser();
    const dallah = shop.products[0];
    const before = await inventoryOf(database.db, dallah.id);
    await customer.post(`/en/catalogue/product-detail/brass-dallah${q()}`, { quantity: "2" });
    const placed = await customer.post(`/en/catalogue/checkout${q()}`, {
      intent: "place",
      customer_name: "Fahad",
      customer_email: "fahad@example.com",
      gateway_code: "mpgs-sandbox",
      accept_terms: "on",
    });
    expect(placed.status).toBe(303);
    expect(await inventoryOf(database.db, dallah.id)).toBe(before! - 2);
    await payByCard(customer, locationOf(placed).pathname, "4000000000000002");
    // Nobody else can take the units while the link may still be paid.
    expect(await inventoryOf(database.db, dallah.id)).toBe(before! - 2);
    const cart = await (await customer.get(`/en/catalogue/cart${q()}`)).text();
    expect(cart).toContain("2 × Brass dallah");
    expect(cart).toContain("is waiting for its payment");
    await payByCard(customer, locationOf(placed).pathname, "5123450000000008");
    expect(await inventoryOf(database.db, dallah.id)).toBe(before! - 2);
    const transactionId = locationOf(placed).pathname.split("/").pop()!;
    expect(
      await database.db
        .selectFrom("catalogue_orders")
        .select("status")
        .where("transaction_id", "=", transactionId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "paid" });
  });
});
