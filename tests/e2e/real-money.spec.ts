import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, refundInFull, t, type Lang } from "./support";

// A payment and its refund, in each language, through each gateway as its real protocol runs:
// KNET's server posts the result to our responseURL and follows our REDIRECT= line, the refund
// goes to KNET's tranPipe as XML; the Mastercard Gateway's Hosted Payment Page (3-D Secure
// included) sends the browser back with a resultIndicator, the platform retrieves the order, and
// the refund is a PUT of our own transaction id.

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

const KNET_LABELS = {
  en: { cardNumber: "Card number", expiry: "Expiry (MM/YYYY)", pin: "PIN", submit: "Submit" },
  ar: { cardNumber: "رقم البطاقة", expiry: "تاريخ الانتهاء (شهر/سنة)", pin: "الرقم السري", submit: "إرسال" },
};

for (const lang of ["en", "ar"] as const) {
  test.describe(`KNET in ${lang === "en" ? "English" : "Arabic"}, JavaScript off`, () => {
    test.use({ javaScriptEnabled: false });

    test("pays on KNET's page in the customer's language, lands on our result page, and is refunded in full", async ({
      page,
      browser,
      request,
    }) => {
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
      await refundInFull(await staff.newPage(), id, lang, "7.250");
      await staff.close();
    });
  });
}

const MPGS_LABELS = {
  en: {
    cardNumber: "Card number",
    expiry: "Expiry (MM/YY)",
    cvv: "Security code (CVV)",
    pay: "Pay",
    code: "One-time code",
    authenticate: "Authenticate",
  },
  ar: {
    cardNumber: "رقم البطاقة",
    expiry: "تاريخ الانتهاء (شهر/سنة)",
    cvv: "رمز الأمان (CVV)",
    pay: "ادفع",
    code: "الرمز لمرة واحدة",
    authenticate: "تحقّق",
  },
};

/** Pay Now with the Mastercard Gateway, then the card on its hosted page (in the customer's language). */
async function payOnHostedPage(page: Page, id: string, lang: Lang, card: string, expiry: string) {
  await page.goto(`/${lang}/pay/${id}`);
  await page.getByRole("button", { name: new RegExp(t(lang, "pay.pay_now", { amount: "" }).trim()) }).click();
  const labels = MPGS_LABELS[lang];
  await page.getByRole("textbox", { name: labels.cardNumber }).fill(card);
  await page.getByRole("textbox", { name: labels.expiry }).fill(expiry);
  await page.getByRole("textbox", { name: labels.cvv }).fill("123");
  await page.getByRole("button", { name: labels.pay, exact: true }).click();
}

test.describe("the Mastercard Gateway, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("approved in English, then refunded in full (7.250 + the card's fee)", async ({ page, browser, request }) => {
    const id = await createRequest(request, "mpgs-sandbox");
    await payOnHostedPage(page, id, "en", "5123450000000008", "01/39");
    await expect(page).toHaveURL(/\/en\/pay\/attempt-detail\//);
    await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
    const staff = await browser.newContext({ javaScriptEnabled: true });
    await refundInFull(await staff.newPage(), id, "en", "7.495");
    await staff.close();
  });

  test("a 3-D Secure challenge in Arabic: the code authenticates, the payment is made, then refunded", async ({
    page,
    browser,
    request,
  }) => {
    const id = await createRequest(request, "mpgs-sandbox");
    await payOnHostedPage(page, id, "ar", "5111111111111118", "01/39");
    await page.getByRole("textbox", { name: MPGS_LABELS.ar.code }).fill("1234");
    await page.getByRole("button", { name: MPGS_LABELS.ar.authenticate }).click();
    await expect(page).toHaveURL(/\/ar\/pay\/attempt-detail\//);
    await expect(page.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    const staff = await browser.newContext({ javaScriptEnabled: true });
    await refundInFull(await staff.newPage(), id, "ar", "7.495");
    await staff.close();
  });

  test("declined in Arabic: the failed view, nothing to refund, and the link can still be paid", async ({
    page,
    request,
  }) => {
    const id = await createRequest(request, "mpgs-sandbox");
    await payOnHostedPage(page, id, "ar", "4508750015741019", "05/39");
    await expect(page).toHaveURL(/\/ar\/pay\/attempt-detail\//);
    await expect(page.getByRole("heading", { name: t("ar", "result.reasons.declined.title") })).toBeVisible();
    await page.goto(`/ar/pay/${id}`);
    await expect(
      page.getByRole("button", { name: new RegExp(t("ar", "pay.pay_now", { amount: "" }).trim()) }),
    ).toBeVisible();
  });
});
