import { expect, test, type Page } from "./fixtures";
import { signIn, t, waitForHydration } from "./support";

const stamp = Date.now().toString(36);
const title = { en: `Parking permit ${stamp}`, ar: `تصريح موقف ${stamp}` };
let link = "";

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test.describe.configure({ mode: "serial" });

test.describe("customer payment collectors", () => {
  test("staff publish a collector page with a question of their own; the demo merchant already has one", async ({
    page,
  }) => {
    await signIn(page, "admin");
    await page.goto("/en/customer-payment/collectors");
    await expect(page.getByRole("heading", { level: 1, name: t("en", "collectors.title") })).toBeVisible();
    await expect(page.getByRole("link", { name: "Pay your invoice" })).toBeVisible();
    await page.getByRole("link", { name: t("en", "collectors.new") }).click();
    await waitForHydration(page);
    await page.getByRole("textbox", { name: t("en", "collectors.fields.title_en") }).fill(title.en);
    await page.getByRole("textbox", { name: t("en", "collectors.fields.title_ar") }).fill(title.ar);
    await page.getByRole("combobox", { name: t("en", "collectors.standard.reference") }).selectOption("required");
    await page.getByRole("textbox", { name: t("en", "collectors.fields.label_en", { n: "1" }) }).fill("Car plate");
    await page.getByRole("textbox", { name: t("en", "collectors.fields.label_ar", { n: "1" }) }).fill("رقم اللوحة");
    await page.getByRole("button", { name: t("en", "collectors.save") }).click();
    await expect(page.getByText(t("en", "collectors.saved"))).toBeVisible();
    link = await page.getByRole("textbox", { name: t("en", "collectors.public_link") }).inputValue();
    expect(link).toMatch(/\/en\/pay\/collect\/[0-9A-Za-z]{22}$/);
  });

  test("a customer on a phone is told the minimum under the amount, then pays by card; staff see the payment", async ({
    browser,
    page,
  }) => {
    const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    const phone = await customer.newPage();
    // In Arabic first: an amount below the merchant's minimum (1 KWD) is refused under the field, what was typed kept.
    await phone.goto(link.replace("/en/", "/ar/"));
    await expect(phone.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(phone.getByRole("heading", { level: 1, name: title.ar })).toBeVisible();
    await fitsTheScreen(phone);
    await phone.getByRole("textbox", { name: t("ar", "collect_public.amount") }).fill("0.500");
    await phone.getByRole("textbox", { name: t("ar", "collect_public.fields.name") }).fill("Huda Al-Rashed");
    // The merchant caps a customer's day: the phone tells customers apart, and is required.
    await phone.getByRole("textbox", { name: t("ar", "collect_public.fields.phone") }).fill("50001234");
    await phone.getByRole("textbox", { name: t("ar", "collect_public.fields.reference") }).fill("PRK-77");
    await phone.getByRole("textbox", { name: "رقم اللوحة" }).fill("12/34567");
    await phone.getByRole("button", { name: t("ar", "collect_public.continue") }).click();
    await expect(phone.locator("#field-amount-error")).toContainText(
      t("ar", "collect_public.errors.below_min", { min: "" }).replace(/\.$/, "").trim(),
    );
    await expect(phone.getByRole("textbox", { name: t("ar", "collect_public.fields.reference") })).toHaveValue(
      "PRK-77",
    );
    await fitsTheScreen(phone);

    // In English: an amount, the card, and the pay page.
    const fillTheForm = async (amount: string) => {
      await phone.getByRole("textbox", { name: t("en", "collect_public.amount") }).fill(amount);
      await phone.getByRole("textbox", { name: t("en", "collect_public.fields.name") }).fill("Huda Al-Rashed");
      await phone.getByRole("textbox", { name: t("en", "collect_public.fields.email") }).fill("huda@example.com");
      await phone.getByRole("textbox", { name: t("en", "collect_public.fields.phone") }).fill("50001234");
      await phone.getByRole("textbox", { name: t("en", "collect_public.fields.reference") }).fill("PRK-77");
      await phone.getByRole("textbox", { name: "Car plate" }).fill("12/34567");
      await phone.getByRole("radio", { name: /Credit Card/ }).check();
      await phone.getByRole("button", { name: t("en", "collect_public.continue") }).click();
    };
    await phone.goto(link);
    await fillTheForm("12.000");
    await expect(phone).toHaveURL(/\/en\/pay\/[0-9A-Za-z]{22}$/);
    await expect(phone.getByText("KWD\u00a012.000", { exact: true })).toBeVisible();
    const firstLink = phone.url();
    // Back to correct the amount: a new link, and the abandoned one ends (never counted twice against the daily cap).
    await phone.goBack();
    await fillTheForm("12.500");
    await expect(phone).toHaveURL(/\/en\/pay\/[0-9A-Za-z]{22}$/);
    expect(phone.url()).not.toBe(firstLink);
    await expect(phone.getByText("KWD\u00a012.500", { exact: true })).toBeVisible();
    await fitsTheScreen(phone);
    await phone.getByRole("button", { name: /Pay Now/ }).click();
    await phone.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
    await phone.getByRole("textbox", { name: "Expiry" }).fill("01/39");
    await phone.getByRole("textbox", { name: "CVV" }).fill("123");
    await phone.getByRole("button", { name: "Pay" }).click();
    await expect(phone.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
    await customer.close();

    // Staff find it among the section's transactions, paid, with the customer's answers.
    await signIn(page, "admin");
    await page.goto("/en/customer-payment/transactions");
    const rows = page.getByRole("row").filter({ hasText: "huda@example.com" });
    await expect(rows.filter({ hasText: "12.500" })).toContainText(t("en", "states.paid"));
    // The link left for the corrected amount ended unpaid.
    await expect(rows.filter({ hasText: "12.000" })).toContainText(t("en", "states.expired"));
  });
});
