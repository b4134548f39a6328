import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, signIn, t, waitForHydration } from "./support";

type Received = { signature: string | undefined; body: string };

// A fake shop platform on loopback: it hands a payment session over and receives the signed callbacks.
const received: Received[] = [];
let shop: http.Server;
let callbackUrl = "";

test.beforeAll(async () => {
  shop = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ signature: req.headers["x-shopify-hmac-sha256"] as string | undefined, body });
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/payments/callback`;
});

test.afterAll(async () => {
  await new Promise((resolve) => shop.close(resolve));
});

test.describe.configure({ mode: "serial" });

test("a shop hands a payment over; the customer pays with JavaScript off, reads the note and returns to the shop; the shop hears resolve, signed", async ({
  page,
  browser,
  request,
}) => {
  // The manager points the shop connection at the shop's callback address and reads the signing secret.
  await signIn(page, "admin");
  await page.goto("/en/shopify/settings");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: t("en", "shopify.settings.title") })).toBeVisible();
  await page.getByRole("textbox", { name: t("en", "shopify.settings.shop_domain") }).fill("e2e-shop.myshopify.com");
  await page.getByRole("textbox", { name: t("en", "shopify.settings.callback_url") }).fill(callbackUrl);
  await page.getByRole("button", { name: t("en", "shopify.settings.save") }).click();
  await expect(page.getByText(t("en", "shopify.flash.saved"))).toBeVisible();
  const secret = (await page.getByTestId("signing-secret").innerText()).trim();
  expect(secret).toMatch(/^spf_[0-9A-Za-z_-]{43}$/);

  // The shop's payments app holds an API key of the merchant's with the shopify:write scope.
  const token = (
    (await (
      await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } })
    ).json()) as { access: string }
  ).access;
  const key = (
    (await (
      await request.post("/api/v1/admin/api-keys", {
        headers: { Authorization: `Bearer ${token}` },
        data: { name: "Shop payments app", scopes: ["shopify:write"] },
      })
    ).json()) as { key: string }
  ).key;
  const paymentId = `e2e-${Date.now().toString(36)}`;
  const session = {
    id: paymentId,
    gid: `gid://shopify/PaymentSession/${paymentId}`,
    group: "checkout-e2e-77",
    amount: "9.750",
    currency: "KWD",
    test: true,
    kind: "sale",
    customer: {
      email: "reem@example.com",
      phone_number: "+96555112233",
      billing_address: { given_name: "Reem", family_name: "Al-Ali" },
    },
    payment_method: { type: "offsite" },
    proposed_at: new Date().toISOString(),
    cancel_url: "https://e2e-shop.myshopify.com/checkouts/77?canceled=1",
    return_url: "https://e2e-shop.myshopify.com/checkouts/77/thank_you",
  };
  const handedOver = await request.post("/api/v1/plugins/shopify/payment-session", {
    headers: { Authorization: `Api-Key ${key}`, "Accept-Language": "ar" },
    data: session,
  });
  expect(handedOver.status()).toBe(201);
  const { redirect_url: redirectUrl, transaction_id: transactionId } = (await handedOver.json()) as {
    redirect_url: string;
    transaction_id: string;
  };
  expect(redirectUrl).toMatch(/\/ar\/spf\/payment-options\/[0-9A-Za-z]{22}$/);
  // The platform retries: the same answer.
  const retried = await request.post("/api/v1/plugins/shopify/payment-session", {
    headers: { Authorization: `Api-Key ${key}`, "Accept-Language": "ar" },
    data: session,
  });
  expect(((await retried.json()) as { transaction_id: string }).transaction_id).toBe(transactionId);

  // The customer, on a phone, with JavaScript off, in Arabic.
  const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const phone = await customer.newPage();
  await phone.goto(redirectUrl);
  await expect(phone.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(phone.getByText("checkout-e2e-77")).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await phone.getByRole("radio", { name: /Credit Card|بطاقة/ }).check();
  await phone.locator('button[name="pay_with"][value="mpgs-sandbox"]').click();
  await phone.getByRole("textbox", { name: /Card number|رقم البطاقة/ }).fill("5123450000000008");
  await phone.getByRole("textbox", { name: /Expiry|تاريخ الانتهاء/ }).fill("01/39");
  await phone.getByRole("textbox", { name: "CVV" }).fill("123");
  await phone.getByRole("button", { name: /^(Pay|ادفع)$/ }).click();
  await expect(phone).toHaveURL(/\/ar\/spf\/payment-details\/[0-9A-Za-z]{22}$/);
  await expect(phone.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();
  await expect(phone.getByText(t("ar", "shopify_public.do_not_pay_again"))).toBeVisible();
  const back = phone.getByRole("link", { name: t("ar", "shopify_public.return_to_shop") });
  await expect(back).toHaveAttribute("href", /^https:\/\/e2e-shop\.myshopify\.com\//);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Paying again is impossible: the payment options say it is paid, without a pay button.
  await phone.goto(redirectUrl);
  await expect(phone.getByRole("heading", { name: t("ar", "pay.settled_title") })).toBeVisible();
  await expect(phone.locator('button[name="pay_with"]')).toHaveCount(0);
  await customer.close();

  // The shop platform receives resolve, signed with the connection's secret.
  await expect
    .poll(() => received.filter((entry) => JSON.parse(entry.body).id === paymentId).length, { timeout: 20_000 })
    .toBe(1);
  const delivery = received.find((entry) => JSON.parse(entry.body).id === paymentId)!;
  expect(delivery.signature).toBe(createHmac("sha256", secret).update(delivery.body).digest("base64"));
  expect(JSON.parse(delivery.body)).toMatchObject({
    action: "resolve",
    id: paymentId,
    group: "checkout-e2e-77",
    amount: "9.750",
    currency: "KWD",
    transaction_id: transactionId,
    state: "paid",
  });

  // Staff find it among the section's transactions, paid.
  await page.goto("/en/shopify/transactions");
  await expect(page.getByRole("row").filter({ hasText: "reem@example.com" })).toContainText(t("en", "states.paid"));
});
