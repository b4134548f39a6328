import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, signIn, t, waitForHydration, type Lang } from "./support";

// A payment and its refund, in each language, through each gateway as its real protocol runs:
// KNET's server posts the result to our responseURL and follows our REDIRECT= line; the refund
// goes to KNET's tranPipe as XML.

async function createRequest(request: APIRequestContext, gateway: string) {
  const token = await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } });
  const { access } = (await token.json()) as { access: string };
  const answer = await request.post("/api/v1/plugins/payment_request/transaction/", {
    headers: { Authorization: `Bearer ${access}` },
    data: { currency_code: "KWD", amount: "7.250", pg_codes: [gateway], customer_first_name: "Salem" },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

/** The whole amount back, from the dashboard in the given language. */
async function refundInFull(page: Page, id: string, lang: Lang) {
  await signIn(page, "admin", DEMO_PASSWORD, lang);
  await page.goto(`/${lang}/payment-request/transactions/${id}`);
  await waitForHydration(page);
  await page.getByRole("link", { name: t(lang, "actions.refund"), exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("textbox", { name: t(lang, "operations.amount", { currency: "KWD" }) })).toHaveValue("7.250");
  await dialog.getByRole("button", { name: t(lang, "actions.refund"), exact: true }).click();
  await dialog.getByRole("textbox", { name: t(lang, "operations.reason") }).fill("Order not delivered");
  await dialog.getByRole("button", { name: t(lang, "operations.yes") }).click();
  await expect(dialog.getByText(t(lang, "operations.success.refund"))).toBeVisible();
  await dialog.getByRole("link", { name: t(lang, "operations.ok") }).click();
  await expect(page.getByText(t(lang, "states.refunded"), { exact: true }).first()).toBeVisible();
}

const KNET_LABELS = {
  en: { cardNumber: "Card number", expiry: "Expiry (MM/YYYY)", pin: "PIN", submit: "Submit" },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ الانتهاء (شهر/سنة)", pin: "الرقم السري", submit: "إرسال" },
};

for (const lang of ["en", "ar"] as const) {
  test.describe(`KNET in ${lang === "en" ? "English" : "Arabic"}, JavaScript off`, () => {
    test.use({ javaScriptEnabled: false });

    test("pays on KNET's page in the customer's language, lands on our result page, and is refunded in full", async ({ page, browser, request }) => {
      const id = await createRequest(request, "knet-sandbox");
      await page.goto(`/${lang}/pay/${id}`);
      await page.getByRole("button", { name: new RegExp(t(lang, "pay.pay_now", { amount: "" }).trim()) }).click();
      // KNET's page speaks the langid it was given.
      const labels = KNET_LABELS[lang];
      await page.getByRole("textbox", { name: labels.cardNumber }).fill("8888880000000001");
      await page.getByRole("textbox", { name: labels.expiry }).fill("09/2021");
      await page.getByRole("textbox", { name: labels.pin }).fill("1234");
      await page.getByRole("button", { name: labels.submit }).click();
      // KNET's server posted the result to responseURL and sent the browser where our answer said.
      await expect(page).toHaveURL(new RegExp(`/${lang}/pay/attempt-detail/`));
      await expect(page.getByRole("heading", { name: t(lang, "result.success_title") })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("dir", lang === "ar" ? "rtl" : "ltr");

      const staff = await browser.newContext({ javaScriptEnabled: true });
      await refundInFull(await staff.newPage(), id, lang);
      await staff.close();
    });
  });
}
