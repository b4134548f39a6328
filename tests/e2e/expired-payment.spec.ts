import { expect, test } from "./fixtures";
import { BASE_URL, pickKuwaitDateTime, signIn, t } from "./support";

test("a request past its expiry cannot be paid", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.goto("/en/payment-request/create");
  await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("4.000");
  await pickKuwaitDateTime(page, t("en", "payment_request.expiration_time"), new Date(Date.now() + 60 * 60_000));
  await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
  const payUrl = new URL(await page.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue())
    .pathname;

  const customer = await browser.newContext({ javaScriptEnabled: false });
  const pay = await customer.newPage();
  await pay.goto(payUrl);
  await expect(pay.getByRole("button", { name: /Pay Now/ })).toBeVisible();

  const moved = await customer.request.post("/__test/clock", {
    data: { ms: 2 * 60 * 60_000 },
    headers: { Origin: BASE_URL },
  });
  expect(moved.status()).toBe(200);
  // The customer still has the old page open and presses Pay Now: refused on the server.
  await pay.getByRole("button", { name: /Pay Now/ }).click();
  await expect(pay.getByText(t("en", "pay.errors.expired_retry"))).toBeVisible();
  await pay.goto(payUrl);
  await expect(pay.getByRole("heading", { name: t("en", "pay.expired") })).toBeVisible();
  // The customer is told whom to ask for a new link, and how: the demo merchant's e-mail and phone.
  await expect(pay.getByText(t("en", "pay.contact_merchant", { merchant: "Demo Store" }))).toBeVisible();
  await expect(pay.getByRole("link", { name: /care@demo-store\.example/ })).toHaveAttribute(
    "href",
    "mailto:care@demo-store.example",
  );
  await expect(pay.getByRole("link", { name: /\+965 2220 0300/ })).toHaveAttribute("href", "tel:+96522200300");
  await pay.goto(payUrl.replace("/en/", "/ar/"));
  await expect(pay.getByRole("heading", { name: t("ar", "pay.expired") })).toBeVisible();
  await expect(pay.getByText(t("ar", "pay.contact_merchant", { merchant: "المتجر التجريبي" }))).toBeVisible();
  await expect(pay.getByRole("link", { name: new RegExp(t("ar", "pay.contact_phone")) })).toHaveAttribute(
    "href",
    "tel:+96522200300",
  );
  await customer.close();
});
