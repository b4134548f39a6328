import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction } from "~/db/database.server";
import { transitionTransaction } from "~/domain/payments/transaction-state.server";
import { DEMO_PASSWORD, seedMerchant } from "../support/fixtures";
import { loadApp, type TestApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { createTestMenu, type TestMenu } from "../support/food-fixtures-fpublic";
import { createTestShop } from "../support/cshop-fixtures";

/**
 * One food order carries one number, its transaction's order number (short, sequential per merchant):
 * the pay page, the customer's confirmation page and mail, the staff's orders list and order page, the
 * transaction's API and express search all read the same one. The customer's links keep the order's
 * unguessable key. A shop order is named the same way.
 */
let database: TestDatabase;
let app: TestApp;
let shop: Awaited<ReturnType<typeof seedMerchant>>;
let menu: TestMenu;

const API = "/api/v1/plugins/food_ordering";
/** React writes `<!-- -->` between a text and the value that follows it. */
const gap = "\\s*(?:<!-- -->)?\\s*";

beforeAll(async () => {
  database = await createTestDatabase();
  // Another merchant's order comes first, and the shop has two payment requests before its first order:
  // the order's table id, its transaction's order number and its public key are three different values.
  const other = await seedMerchant(database.db, "Early");
  shop = await seedMerchant(database.db, "Numbers");
  app = await loadApp({ ...database.env, SEED_DEMO: "0" });
  const otherMenu = await createTestMenu(database.db, { merchantId: other.merchantId });
  menu = await createTestMenu(database.db, { merchantId: shop.merchantId });
  expect((await app.request(`${API}/checkout`, { json: order(otherMenu), ip: "10.9.0.1" })).status).toBe(201);
  const token = (await app.apiToken(shop.admin.username, DEMO_PASSWORD)).access;
  for (const amount of ["1.000", "2.000"]) {
    const request = await app.request("/api/v1/plugins/payment_request/transaction", {
      json: { amount, pg_codes: "knet-sandbox" },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(request.status).toBe(201);
  }
});
afterAll(async () => database?.destroy());

function order(on: TestMenu) {
  return {
    delivery_type: "pickup",
    branch: on.branchId,
    customer_name: "Maryam Al-Sabah",
    customer_email: "maryam@example.com",
    customer_phone: "50004321",
    gateway_code: "knet-sandbox",
    lines: [{ menu_item: on.saladId, category_id: on.categoryId, quantity: 1 }],
  };
}

describe("an order's number", () => {
  it("is a food order's transaction's order number everywhere people read it, and express search finds it", async () => {
    const placed = await app.request(`${API}/checkout`, { json: order(menu), ip: "10.9.0.2" });
    expect(placed.status).toBe(201);
    const body = (await placed.json()) as { id: number; number: string; order_no: number; checkout_url: string };
    const stored = await database.db
      .selectFrom("food_orders")
      .innerJoin("transactions", "transactions.id", "food_orders.transaction_id")
      .select([
        "food_orders.id",
        "food_orders.order_no",
        "transactions.id as transaction_id",
        "transactions.order_no as transaction_order_no",
      ])
      .where("food_orders.number", "=", body.number)
      .executeTakeFirstOrThrow();
    const orderNo = body.order_no;
    expect(orderNo).toBe(3);
    expect(stored.transaction_order_no).toBe(orderNo);
    expect(stored.order_no).toBe(orderNo);
    expect(body.id).toBe(stored.id);
    expect(stored.id).not.toBe(orderNo);
    // Public paths carry unguessable keys, never the short number.
    expect(body.number).toMatch(/^[0-9A-Z]{20}$/);
    expect(new URL(body.checkout_url).pathname).toBe(`/en/pay/${stored.transaction_id}`);

    const payPage = await (await app.request(new URL(body.checkout_url).pathname)).text();
    expect(payPage).toMatch(new RegExp(`Order No${gap}</span>${gap}${orderNo}\\b`));

    // Paid: the order becomes new, the customer is mailed and staff see it.
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, stored.transaction_id, "paid", { kind: "payment", attemptId: "number-attempt" }),
    );

    const confirmation = await (await app.request(`/en/new-menu/order-confirmation/${body.number}`)).text();
    expect(confirmation).toMatch(new RegExp(`<h1[^>]*>Order #${gap}${orderNo}${gap}</h1>`));
    expect(confirmation).not.toContain(`>Order ${body.number}<`);
    const arabic = await (await app.request(`/ar/new-menu/order-confirmation/${body.number}`)).text();
    expect(arabic).toMatch(new RegExp(`<h1[^>]*>الطلب رقم ${gap}${orderNo}${gap}</h1>`));
    const state = (await (await app.request(`${API}/order/state/${body.number}`)).json()) as { order_no: number };
    expect(state.order_no).toBe(orderNo);

    const mails = await database.db
      .selectFrom("outgoing_mail")
      .select(["to_address", "subject", "text_body", "html_body"])
      .where("merchant_id", "=", shop.merchantId)
      .where("to_address", "=", "maryam@example.com")
      .execute();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe(`Your order #${orderNo}`);
    expect(mail.text_body).toContain(`has received your order #${orderNo}.`);
    expect(mail.text_body).toMatch(new RegExp(`Order number:?\\s+${orderNo}\\b`));
    expect(mail.text_body).toContain(`/en/new-menu/order-confirmation/${body.number}`);
    expect(`${mail.subject}${mail.text_body.replace(`order-confirmation/${body.number}`, "")}`).not.toContain(
      body.number,
    );

    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const list = await (await app.request("/en/food-ordering/orders?refresh=0", { cookie })).text();
    expect(list).toMatch(new RegExp(`href="/en/food-ordering/orders/${stored.id}"[^>]*>#${gap}${orderNo}${gap}</a>`));
    expect(list).not.toContain(body.number);
    const searched = await (await app.request(`/en/food-ordering/orders?refresh=0&q=%23${orderNo}`, { cookie })).text();
    expect(searched).toContain(`href="/en/food-ordering/orders/${stored.id}"`);
    const page = await (await app.request(`/en/food-ordering/orders/${stored.id}`, { cookie })).text();
    expect(page).toMatch(new RegExp(`<title>Order ${orderNo}</title>`));
    expect(page).toMatch(new RegExp(`<h[1-3][^>]*>Order #${gap}${orderNo}${gap}</h[1-3]>`));
    expect(page).not.toContain(body.number);

    const headers = { Authorization: `Bearer ${(await app.apiToken(shop.admin.username, DEMO_PASSWORD)).access}` };
    const transaction = (await (
      await app.request(`${API}/transaction/details/${stored.transaction_id}`, { headers })
    ).json()) as { order_no: number };
    expect(transaction.order_no).toBe(orderNo);
    const orders = (await (await app.request(`${API}/order?q=${orderNo}`, { headers })).json()) as {
      results: { id: number; order_no: number }[];
    };
    expect(orders.results).toEqual([expect.objectContaining({ id: stored.id, order_no: orderNo })]);
    const details = (await (await app.request(`${API}/order/${stored.id}`, { headers })).json()) as {
      order_no: number;
    };
    expect(details.order_no).toBe(orderNo);

    const express = await (await app.request(`/en/search/express?q=${orderNo}`, { cookie })).text();
    expect(express).toContain(`/${stored.transaction_id}?type=food_ordering"`);
    expect(express).toMatch(new RegExp(`>${gap}${orderNo}${gap}<`));
    const byHash = await (await app.request(`/en/search/express?q=%23${orderNo}`, { cookie })).text();
    expect(byHash).toContain(`/${stored.transaction_id}?type=food_ordering"`);
  });

  it("is the shop order's too: its checkout answer, pay page, confirmation, transaction page and API", async () => {
    const { products } = await createTestShop(database.db, {
      merchantId: shop.merchantId,
      products: [{ price: 2000, inventory: 5 }],
    });
    const placed = await app.request(`/api/v1/plugins/catalogue/invoice/checkout?merchant=${shop.merchantId}`, {
      json: {
        items: [{ slug: products[0].slug, quantity: 1 }],
        discount_code: "",
        customer_name: "Maryam Al-Sabah",
        customer_email: "maryam@example.com",
        customer_phone: "50004321",
        gateway_code: "knet-sandbox",
      },
      ip: "10.9.0.3",
    });
    expect(placed.status).toBe(201);
    const body = (await placed.json()) as {
      number: string;
      order_no: number;
      transaction_id: string;
      checkout_url: string;
    };
    const transactionRow = await database.db
      .selectFrom("transactions")
      .select("order_no")
      .where("id", "=", body.transaction_id)
      .executeTakeFirstOrThrow();
    const orderNo = body.order_no;
    expect(orderNo).toBe(transactionRow.order_no);
    expect(orderNo).toBeGreaterThan(3);
    expect(body.number).toMatch(/^[0-9A-Z]{20}$/);

    const payPage = await (await app.request(new URL(body.checkout_url).pathname)).text();
    expect(payPage).toMatch(new RegExp(`Order No${gap}</span>${gap}${orderNo}\\b`));
    await writeTransaction(database.db, (trx) =>
      transitionTransaction(trx, body.transaction_id, "paid", { kind: "payment", attemptId: "shop-attempt" }),
    );
    const confirmation = await (
      await app.request(`/en/catalogue/cart?merchant=${shop.merchantId}&order=${body.number}`)
    ).text();
    expect(confirmation).toMatch(new RegExp(`>Order #${gap}${orderNo}${gap}</h2>`));
    expect(confirmation).not.toContain(`Order ${body.number}`);

    const cookie = await app.signIn(shop.admin.username, DEMO_PASSWORD);
    const details = await (await app.request(`/en/catalogue/transactions/${body.transaction_id}`, { cookie })).text();
    expect(details).toMatch(new RegExp(`Shop order[\\s\\S]{0,200}>#${gap}${orderNo}${gap}<`));
    expect(details).not.toContain(body.number);
    const headers = { Authorization: `Bearer ${(await app.apiToken(shop.admin.username, DEMO_PASSWORD)).access}` };
    const api = (await (
      await app.request(`/api/v1/plugins/catalogue/transaction/details/${body.transaction_id}/`, { headers })
    ).json()) as { order_no: number; catalogue_order: { order_no: number } };
    expect(api.order_no).toBe(orderNo);
    expect(api.catalogue_order.order_no).toBe(orderNo);
  });
});
