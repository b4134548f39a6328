import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestMenu, type TestMenu } from "../support/food-fixtures-fpublic";

// Customers read the menu, fill a cart held on the server (with JavaScript off: plain form posts),
// and order through the public API or the checkout page; the server refuses what the restaurant
// cannot serve and names the line at fault.

let database: TestDatabase;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;

beforeAll(async () => {
  database = await createTestDatabase();
  merchant = await seedMerchant(database.db, "Food");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
});
afterAll(async () => database?.destroy());

const API = "/api/v1/plugins/food_ordering";

function cookiesFrom(response: Response, jar: Record<string, string> = {}) {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const at = pair.indexOf("=");
    jar[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return jar;
}
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");

const burgerLine = (menu: TestMenu, extra: Record<string, unknown> = {}) => ({
  menu_item: menu.burgerId,
  category_id: menu.categoryId,
  quantity: 1,
  size: menu.smallId,
  add_ons: [menu.cheeseId],
  options: { [String(menu.groupId)]: menu.friesId },
  special_instructions: "",
  ...extra,
});

const checkout = (menu: TestMenu, extra: Record<string, unknown> = {}) => ({
  delivery_type: "delivery",
  branch: menu.branchId,
  delivery_area: menu.areaId,
  customer_name: "Sara Ali",
  customer_email: "sara@example.com",
  customer_phone: "50001234",
  address: { address: "Home", area: "Salmiya", block: "10", street: "Salem Al Mubarak", house_no: "7" },
  gateway_code: "knet-sandbox",
  lines: [burgerLine(menu), { menu_item: menu.saladId, category_id: menu.categoryId, quantity: 2 }],
  ...extra,
});

describe("the public menu", () => {
  it("shows categories with their dishes, discounted prices struck through and sold-out dishes marked", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId, burgerQuantity: 0 });
    const page = await app.request(`/en/new-menu?merchant=${merchant.merchantId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Burger");
    expect(html).toMatch(/1\.500[^<]*<del>[^<]*2\.000[^<]*<\/del>/);
    expect(html).toContain("Sold out");
    expect(html).not.toMatch(/<script[^>]*src=/);
    const arabic = await (await app.request(`/ar/new-menu?merchant=${merchant.merchantId}`)).text();
    expect(arabic).toContain("برجر");
    expect(arabic).toContain("نفدت الكمية");

    const categories = (await (
      await app.request(`${API}/product_categories?merchant=${merchant.merchantId}`)
    ).json()) as { id: number }[];
    expect(categories.map((category) => category.id)).toContain(menu.categoryId);
    const items = (await (
      await app.request(`${API}/menu-items?category=${menu.categoryId}&merchant=${merchant.merchantId}`)
    ).json()) as { name_en: string; price: string; discounted_price: string | null; is_sold_out: boolean }[];
    expect(items).toEqual([
      expect.objectContaining({ name_en: "Burger", price: "2.500", is_sold_out: true }),
      expect.objectContaining({ name_en: "Salad", price: "2.000", discounted_price: "1.500", is_sold_out: false }),
    ]);
    const burger = (await (await app.request(`${API}/products/${menu.burgerId}`)).json()) as {
      sizes: { price: string }[];
      options: { min_choices: number }[];
    };
    expect(burger.sizes.map((size) => size.price)).toEqual(["2.500", "3.500"]);
    expect(burger.options[0].min_choices).toBe(1);
    const branch = (await (await app.request(`${API}/branches/${menu.branchId}`)).json()) as {
      is_open: boolean;
      working_hours: unknown[];
      minimum_order_sum: string;
    };
    expect(branch.is_open).toBe(true);
    expect(branch.working_hours).toHaveLength(7);
    const areas = (await (await app.request(`${API}/delivery_areas/${menu.branchId}`)).json()) as {
      name_ar: string;
      delivery_charges: string;
    }[];
    expect(areas).toEqual([expect.objectContaining({ name_ar: "السالمية", delivery_charges: "0.500" })]);
    expect((await app.request(`${API}/products/99999999`)).status).toBe(404);
  });

  it("is served without the router as the router serves it, and leaves every other page to the router", async () => {
    await createTestMenu(database.db, { merchantId: merchant.merchantId, burgerQuantity: 3 });
    for (const lang of ["en", "ar"] as const) {
      const path = `/${lang}/new-menu?merchant=${merchant.merchantId}`;
      const direct = await app.requestSectionPage(path);
      if (!direct) throw new Error("the menu has no direct handler");
      expect(direct.status).toBe(200);
      expect(direct.headers.get("Content-Security-Policy")).toContain("nonce-");
      const body = (html: string) => /<body[^>]*>([\s\S]*?)(<script|<\/body>)/.exec(html)?.[1] ?? "";
      const viaRouter = body(await (await app.request(path)).text());
      const viaHandler = body(await direct.text());
      expect(viaHandler).toContain(lang === "ar" ? "برجر" : "Burger");
      // The same page either way: the visible words of the menu, in order.
      const words = (html: string) =>
        html
          .replace(/<style[\s\S]*?<\/style>/g, " ")
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .trim();
      expect(words(viaHandler)).toBe(words(viaRouter));
    }
    // Other pages stay the router's.
    expect(await app.requestSectionPage("/en/login")).toBeNull();
    expect(await app.requestSectionPage("/en/new-menu/checkout")).toBeNull();
  });
});

describe("the cart without JavaScript", () => {
  it("merges identical lines, keeps different ones apart, and asks before a change of order type empties it", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const jar: Record<string, string> = {};
    const details = `/en/new-menu/category/${menu.categoryId}/food-details/${menu.burgerId}`;
    const add = async (form: Record<string, string>) => {
      const response = await app.request(details, { form, cookie: cookieHeader(jar) });
      cookiesFrom(response, jar);
      return response;
    };
    const burger = {
      size: String(menu.smallId),
      add_ons: String(menu.cheeseId),
      [`option.${menu.groupId}`]: String(menu.friesId),
      quantity: "1",
      special_instructions: "",
    };
    const first = await add(burger);
    expect(first.status).toBe(303);
    await add({ ...burger, quantity: "2" });
    await add({ ...burger, special_instructions: "No onions" });
    const missing = await add({ size: String(menu.smallId), quantity: "1" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Choose the number of options each group asks for.");

    const cart = await (
      await app.request(`/en/new-menu/checkout?merchant=${merchant.merchantId}`, { cookie: cookieHeader(jar) })
    ).text();
    expect(cart).toContain("3 × Burger");
    expect(cart).toContain("1 × Burger");
    expect(cart).toContain("No onions");

    const change = await app.request(`/en/new-menu?merchant=${merchant.merchantId}`, {
      form: { intent: "location", delivery_type: "pickup", branch: String(menu.branchId) },
      cookie: cookieHeader(jar),
    });
    expect(change.status).toBe(303);
    const confirm = change.headers.get("Location")!;
    expect(confirm).toContain("confirm=1");
    const ask = await (await app.request(confirm, { cookie: cookieHeader(jar) })).text();
    expect(ask).toContain("Clear the cart?");
    // No: the menu as it was, the cart and its order type kept.
    const kept = await (
      await app.request(`/en/new-menu?merchant=${merchant.merchantId}`, { cookie: cookieHeader(jar) })
    ).text();
    expect(kept).toContain("Cart: 4 items");
    expect(kept).toMatch(/checked="" value="delivery"/);
    // Yes: emptied, the new order type applied.
    const yes = await app.request(`/en/new-menu?merchant=${merchant.merchantId}`, {
      form: { intent: "confirm_clear", delivery_type: "pickup", branch: String(menu.branchId), delivery_area: "" },
      cookie: cookieHeader(jar),
    });
    expect(yes.status).toBe(303);
    const after = await (await app.request(yes.headers.get("Location")!, { cookie: cookieHeader(jar) })).text();
    expect(after).toContain("Cart: 0 items");
    expect(after).toMatch(/checked="" value="pickup"/);
  });

  it("discards a stored cart that cannot be read", async () => {
    await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const jar: Record<string, string> = {};
    cookiesFrom(
      await app.request(`/en/new-menu?merchant=${merchant.merchantId}`, {
        form: { intent: "location", delivery_type: "pickup", branch: "" },
      }),
      jar,
    );
    await database.db.updateTable("food_carts").set({ data: "{not json" }).execute();
    const page = await app.request(`/en/new-menu?merchant=${merchant.merchantId}`, { cookie: cookieHeader(jar) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Cart: 0 items");
  });

  it("places a cash-on-delivery order from the checkout page and empties the cart", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const jar: Record<string, string> = {};
    const post = async (path: string, form: Record<string, string>) => {
      const response = await app.request(path, { form, cookie: cookieHeader(jar) });
      cookiesFrom(response, jar);
      return response;
    };
    await post(`/en/new-menu?merchant=${merchant.merchantId}`, {
      intent: "location",
      delivery_type: "pickup",
      branch: String(menu.branchId),
    });
    await post(`/en/new-menu/category/${menu.categoryId}/food-details/${menu.saladId}`, { quantity: "2" });
    const checkoutPath = `/en/new-menu/checkout?merchant=${merchant.merchantId}`;
    const refused = await post(checkoutPath, {
      intent: "place",
      customer_name: "Sara",
      customer_phone: "123",
      gateway_code: "cod",
      voucher: "",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Enter a valid phone number");
    expect(refusedHtml).toContain('value="Sara"');
    const placed = await post(checkoutPath, {
      intent: "place",
      customer_name: "Sara",
      customer_phone: "50001234",
      gateway_code: "cod",
      voucher: "",
    });
    expect(placed.status).toBe(303);
    const confirmation = placed.headers.get("Location")!;
    expect(confirmation).toMatch(/^\/en\/new-menu\/order-confirmation\/[0-9A-Z]{20}$/);
    const html = await (await app.request(confirmation)).text();
    expect(html).toContain("New");
    expect(html).toContain('http-equiv="refresh"');
    expect(await (await app.request(checkoutPath, { cookie: cookieHeader(jar) })).text()).toContain(
      "Your cart is empty.",
    );
  });
});

describe("the checkout API", () => {
  it("keeps a customer's Idempotency-Key from spoiling the merchant's own request with that key, or another customer's", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const key = { "Idempotency-Key": "order-2026-0001" };
    const first = await app.request(`${API}/checkout`, {
      json: checkout(menu, { gateway_code: "cod" }),
      headers: key,
      ip: "10.1.0.20",
    });
    expect(first.status).toBe(201);
    // Another customer happens on (or copies) the same key with their own order: it is theirs, not a 422.
    const second = await app.request(`${API}/checkout`, {
      json: checkout(menu, { gateway_code: "cod", customer_name: "Huda" }),
      headers: key,
      ip: "10.1.0.21",
    });
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBeNull();
    expect(((await second.json()) as { number: string }).number).not.toBe(
      ((await first.json()) as { number: string }).number,
    );
    // The merchant's own system later sends a payment request with the same key: it is made, not refused.
    const token = (await app.apiToken(merchant.admin.username, DEMO_PASSWORD)).access;
    const create = () =>
      app.request("/api/v1/plugins/payment_request/transaction", {
        json: { amount: "4.000", pg_codes: "cod" },
        headers: { ...key, Authorization: `Bearer ${token}` },
      });
    const own = await create();
    expect(own.status, await own.clone().text()).toBe(201);
    expect(own.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await create();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await again.json()) as { id: string }).id).toBe(((await own.json()) as { id: string }).id);
  });

  it("answers a KNET delivery order with the pay page to send the customer to", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const response = await app.request(`${API}/checkout`, { json: checkout(menu), ip: "10.1.0.1" });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; number: string; total: string; checkout_url: string };
    // 2.500 + 0.250 cheese + 2 × 1.500 salad + 0.500 delivery.
    expect(body.total).toBe("6.250");
    expect(body.checkout_url).toMatch(/\/en\/pay\/[0-9A-Za-z]{22}$/);
    const state = (await (await app.request(`${API}/order/state/${body.number}`)).json()) as { status: string };
    expect(state.status).toBe("pending_payment");
    const pay = await app.request(new URL(body.checkout_url).pathname);
    expect(pay.status).toBe(200);
  });

  it("records a cash-on-delivery order at once, with no pay page, and shows its state by number", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const response = await app.request(`${API}/checkout`, {
      json: checkout(menu, { gateway_code: "cod", voucher: menu.voucher }),
      ip: "10.1.0.2",
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { number: string; total: string; checkout_url: string | null };
    expect(body.checkout_url).toBeNull();
    // 10% off the 5.750 subtotal (0.575), then 0.500 delivery.
    expect(body.total).toBe("5.675");
    const details = (await (await app.request(`${API}/order/details/${body.number}`)).json()) as {
      status: string;
      lines: unknown[];
    };
    expect(details.status).toBe("new");
    expect(details.lines).toHaveLength(2);
    const page = await app.request(`/ar/new-menu/order-confirmation/${body.number}`);
    expect(page.status).toBe(200);
    expect(await page.clone().text()).toContain("جديد");
    // Once delivered, the page stops refreshing and takes one rating.
    expect(await page.clone().text()).toContain('http-equiv="refresh"');
    await database.db
      .updateTable("food_orders")
      .set({ status: "delivered" })
      .where("number", "=", body.number)
      .execute();
    const delivered = await (await app.request(`/en/new-menu/order-confirmation/${body.number}`)).text();
    expect(delivered).not.toContain('http-equiv="refresh"');
    expect(delivered).toContain("How was your order?");
    const rated = await app.request(`/en/new-menu/order-confirmation/${body.number}`, {
      form: { rating: "5", comment: "Hot and quick" },
      ip: "10.1.0.9",
    });
    expect(rated.status).toBe(303);
    expect(await (await app.request(`/en/new-menu/order-confirmation/${body.number}`)).text()).toContain(
      "Thank you for your feedback.",
    );
    expect(
      (await app.request(`${API}/order-feedback/${body.number}`, { json: { rating: 4 }, ip: "10.1.0.9" })).status,
    ).toBe(400);
    expect((await app.request("/en/new-menu/order-confirmation/ZZZZZZZZZZ")).status).toBe(404);
    expect((await app.request(`${API}/order/state/ZZZZZZZZZZ`)).status).toBe(404);
  });

  it("refuses an area the branch does not deliver to, a closed branch, a sold-out line and an unknown voucher", async () => {
    const menu = await createTestMenu(database.db, { merchantId: merchant.merchantId });
    const outside = await app.request(`${API}/checkout`, {
      json: checkout(menu, { delivery_area: menu.farAreaId }),
      ip: "10.1.0.3",
    });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toEqual({ delivery_area: ["This branch does not deliver to this area."] });

    const closed = await createTestMenu(database.db, { merchantId: merchant.merchantId, hours: [] });
    const shut = await app.request(`${API}/checkout`, { json: checkout(closed), ip: "10.1.0.3" });
    expect(shut.status).toBe(400);
    expect(await shut.json()).toEqual({
      branch: ["The branch is closed now; schedule the order for its working hours."],
    });

    const soldOut = await createTestMenu(database.db, { merchantId: merchant.merchantId, burgerQuantity: 0 });
    const lines = [{ menu_item: soldOut.saladId, category_id: soldOut.categoryId, quantity: 1 }, burgerLine(soldOut)];
    const gone = await app.request(`${API}/checkout`, { json: checkout(soldOut, { lines }), ip: "10.1.0.3" });
    expect(gone.status).toBe(400);
    expect(await gone.json()).toEqual({ lines: [{}, { quantity: ["Sold out."] }] });

    const voucher = await app.request(`${API}/checkout?lang=ar`, {
      json: checkout(menu, { voucher: "NOPE" }),
      ip: "10.1.0.3",
    });
    expect(voucher.status).toBe(400);
    const refused = (await voucher.json()) as { voucher: string[] };
    expect(Object.keys(refused)).toEqual(["voucher"]);
    expect(refused.voucher[0]).not.toBe("This voucher code is not valid.");

    const activate = await app.request(`${API}/voucher/activate/`, {
      json: { code: "NOPE", branch: menu.branchId, total: "10.000" },
    });
    expect(activate.status).toBe(400);
    expect(await activate.json()).toEqual({ code: ["This voucher code is not valid."] });
    const good = await app.request(`${API}/voucher/activate/`, {
      json: { code: menu.voucher.toLowerCase(), branch: menu.branchId, total: "10.000" },
    });
    expect(await good.json()).toEqual(
      expect.objectContaining({ code: menu.voucher, discount_type: "percentage", amount: "10.00", discount: "1.000" }),
    );
  });
});
