import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { BASE_URL, DEMO_PASSWORD, signIn, t } from "./support";

/**
 * A merchant's own server (a small HTTP server on loopback, as a shop's back end would be) makes a
 * checkout session with its API key; the customer pays it on the hosted page in Arabic with
 * JavaScript off, on a phone, and comes back to the shop with the result; the shop's server gets
 * the signed webhook and reads the session as paid.
 */
type Hook = { headers: http.IncomingHttpHeaders; body: string };

const stamp = Date.now().toString(36);
const orderNo = `SHOP-${stamp}`;

async function startShopServer() {
  const hooks: Hook[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.url?.startsWith("/hooks")) {
        hooks.push({ headers: req.headers, body });
        res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
        return;
      }
      res
        .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
        .end("<!doctype html><title>Shop</title><h1>Back at the shop</h1>");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, hooks, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test("a shop's server makes a session, the customer pays it in Arabic without JavaScript and returns to the shop, which is told, signed", async ({
  browser,
  request,
}) => {
  const shop = await startShopServer();
  try {
    // The merchant's manager makes the shop's API key and reads the checkout signing secret.
    const token = (
      await (
        await request.post(`${BASE_URL}/api/v1/user/token/`, { data: { username: "admin", password: DEMO_PASSWORD } })
      ).json()
    ).access as string;
    const manager = { Authorization: `Bearer ${token}` };
    const keyAnswer = await request.post(`${BASE_URL}/api/v1/admin/api-keys`, {
      headers: manager,
      data: {
        name: `Shop ${stamp}`,
        scopes: ["e_commerce:read", "e_commerce:write", "e_commerce:refund"],
        allowed_ips: [],
        expires_at: null,
      },
    });
    expect(keyAnswer.status()).toBe(201);
    const apiKey = { Authorization: `Api-Key ${(await keyAnswer.json()).key}` };
    const secret = (
      await (await request.get(`${BASE_URL}/api/v1/checkout/v1/signing-secret`, { headers: manager })).json()
    ).secret as string;

    // The shop's server asks for the session.
    const created = await request.post(`${BASE_URL}/api/v1/checkout/v1/pymt-txn/`, {
      headers: { ...apiKey, "Idempotency-Key": orderNo },
      data: {
        type: "e_commerce",
        amount: "23.750",
        currency_code: "KWD",
        pg_codes: ["knet-sandbox", "mpgs-sandbox"],
        order_no: orderNo,
        customer_first_name: "مريم",
        customer_email: "maryam@example.com",
        redirect_url: `${shop.url}/return`,
        webhook_url: `${shop.url}/hooks`,
        language: "ar",
      },
    });
    expect(created.status()).toBe(201);
    const session = await created.json();
    expect(session.checkout_url).toMatch(new RegExp(`/ar/checkout/${session.session_id}$`));

    // The customer, on a phone with JavaScript off, pays on the hosted page in Arabic.
    const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    const phone = await customer.newPage();
    await phone.goto(session.checkout_url);
    await expect(phone.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(phone.getByText(orderNo)).toBeVisible();
    await expect(phone.getByText("23.750").first()).toBeVisible();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.locator('label.pay-choice[data-gateway="mpgs-sandbox"]').click();
    await phone.locator('button[name="pay_with"][value="mpgs-sandbox"]').click();
    await phone.getByRole("textbox", { name: /Card number|رقم البطاقة/ }).fill("5123450000000008");
    await phone.getByRole("textbox", { name: /Expiry|تاريخ الانتهاء/ }).fill("01/39");
    await phone.getByRole("textbox", { name: "CVV" }).fill("123");
    await phone.getByRole("button", { name: /^(Pay|ادفع)$/ }).click();
    await expect(phone.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();
    // Back to the shop with the session, its order and the result (the page also forwards by itself).
    await phone.getByRole("link", { name: t("ar", "result.continue_to_merchant") }).click();
    await expect(phone.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
    const back = new URL(phone.url());
    expect(back.pathname).toBe("/return");
    expect(Object.fromEntries(back.searchParams)).toEqual({
      session_id: session.session_id,
      order_no: orderNo,
      result: "success",
    });
    await customer.close();

    // The shop's server is told, signed with the merchant's checkout secret.
    await expect
      .poll(() => shop.hooks.filter((hook) => JSON.parse(hook.body).type === "checkout_session.paid").length, {
        timeout: 30_000,
      })
      .toBe(1);
    const hook = shop.hooks.find((entry) => JSON.parse(entry.body).type === "checkout_session.paid")!;
    const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(hook.headers.signature));
    expect(signature).not.toBeNull();
    expect(signature![2]).toBe(createHmac("sha256", secret).update(`${signature![1]}.${hook.body}`).digest("hex"));
    expect(JSON.parse(hook.body).data).toMatchObject({
      session_id: session.session_id,
      order_no: orderNo,
      state: "paid",
    });

    // And reads the session as paid.
    const read = await (
      await request.get(`${BASE_URL}/api/v1/checkout/v1/pymt-txn/${session.session_id}`, { headers: apiKey })
    ).json();
    expect(read).toMatchObject({ state: "paid", order_no: orderNo, amount: "23.750" });
    expect(read.attempts).toHaveLength(1);
    expect(read.attempts[0]).toMatchObject({ state: "success", gateway: "mpgs-sandbox" });

    // The shop refunds the whole order by its own number; the same call sent again (a retry after a
    // lost answer) gets the first answer back, not a second refund request. The demo merchant has
    // refunds approved by a second person: the money moves once a checker approves.
    const refund = { operation: "refund", order_no: orderNo };
    const tracking = { ...apiKey, "Tracking-Key": `refund-${orderNo}` };
    const first = await request.post(`${BASE_URL}/api/v1/checkout/v1/operation/`, { headers: tracking, data: refund });
    expect(first.status()).toBe(202);
    const firstBody = await first.json();
    expect(firstBody).toMatchObject({
      operation: "refund",
      session_id: session.session_id,
      order_no: orderNo,
      result: "pending",
      amount: read.paid_amount,
    });
    const again = await request.post(`${BASE_URL}/api/v1/checkout/v1/operation/`, { headers: tracking, data: refund });
    expect(again.status()).toBe(202);
    expect(await again.json()).toEqual(firstBody);

    const checker = await (await browser.newContext()).newPage();
    await signIn(checker, "checker");
    await checker.goto(`${BASE_URL}/en/ticket/approve-refund-void/${firstBody.approval_request_id}`);
    await checker.getByRole("button", { name: t("en", "tickets.decisions.approve") }).click();
    await checker
      .getByRole("region", { name: /Approve refunding/ })
      .getByRole("button", { name: t("en", "tickets.confirm.yes") })
      .click();
    await expect(checker.getByRole("status").getByText(/refunded/i)).toBeVisible();
    await checker.context().close();

    const refunded = await (
      await request.get(`${BASE_URL}/api/v1/checkout/v1/pymt-txn/${session.session_id}`, { headers: apiKey })
    ).json();
    expect(refunded).toMatchObject({ state: "refunded", refunded_amount: read.paid_amount });
    // The first call's key still answers as it did, and nothing is left to refund under a new key.
    const third = await request.post(`${BASE_URL}/api/v1/checkout/v1/operation/`, { headers: tracking, data: refund });
    expect(await third.json()).toEqual(firstBody);
    const more = await request.post(`${BASE_URL}/api/v1/checkout/v1/operation/`, {
      headers: { ...apiKey, "Tracking-Key": `refund-again-${orderNo}` },
      data: { ...refund, amount: "1.000" },
    });
    expect(more.status()).toBe(400);
  } finally {
    await new Promise((resolve) => shop.server.close(resolve));
  }
});
