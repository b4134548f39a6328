import { expect, test } from "./fixtures";
import { BASE_URL, signIn, t } from "./support";

/** "YYYY-MM-DDTHH:mm" in Kuwait time, as a datetime-local field takes it. */
function kuwaitLocal(date: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Kuwait", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

test("a request past its expiry cannot be paid", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.goto("/en/payment-request/create");
  await page.getByRole("textbox", { name: t("en", "payment_request.amount"), exact: true }).fill("4.000");
  await page.getByLabel(t("en", "payment_request.expiration_time")).fill(kuwaitLocal(new Date(Date.now() + 60 * 60_000)));
  await page.getByRole("button", { name: t("en", "payment_request.submit") }).click();
  const payUrl = new URL(await page.getByRole("textbox", { name: t("en", "payment_request.payment_url") }).inputValue()).pathname;

  const customer = await browser.newContext({ javaScriptEnabled: false });
  const pay = await customer.newPage();
  await pay.goto(payUrl);
  await expect(pay.getByRole("button", { name: /Pay Now/ })).toBeVisible();

  const moved = await customer.request.post("/__test/clock", { data: { ms: 2 * 60 * 60_000 }, headers: { Origin: BASE_URL } });
  expect(moved.status()).toBe(200);
  // The customer still has the old page open and presses Pay Now: refused on the server.
  await pay.getByRole("button", { name: /Pay Now/ }).click();
  await expect(pay.getByText(t("en", "pay.errors.expired_retry"))).toBeVisible();
  await pay.goto(payUrl);
  await expect(pay.getByRole("heading", { name: t("en", "pay.expired") })).toBeVisible();
  await customer.close();
});
