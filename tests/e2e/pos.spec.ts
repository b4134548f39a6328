import { expect, test, type Browser, type Page } from "./fixtures";
import { signIn, t, waitForHydration } from "./support";

async function fitsTheScreen(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** The customer, on their own phone, opens the pay link and pays with the sandbox's approved card. */
async function payOnThePhone(browser: Browser, link: string) {
  const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const phone = await customer.newPage();
  await phone.goto(link);
  await phone.getByRole("radio", { name: /Credit Card/ }).check();
  await phone.getByRole("button", { name: /Pay Now/ }).click();
  await phone.getByRole("textbox", { name: "Card number" }).fill("5123450000000008");
  await phone.getByRole("textbox", { name: "Expiry" }).fill("01/39");
  await phone.getByRole("textbox", { name: "CVV" }).fill("123");
  await phone.getByRole("button", { name: "Pay" }).click();
  await expect(phone.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
  await customer.close();
}

test.describe("the point of sale", () => {
  test("staff on a phone make a payment, the customer pays it on theirs, and the counter shows it paid without a reload", async ({
    browser,
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, "admin");
    await page.goto("/en/pos/pay");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: t("en", "pos.new_payment") })).toBeVisible();
    await fitsTheScreen(page, 360);
    // Nothing typed: said under the amount, and nothing made.
    await page.getByRole("textbox", { name: t("en", "pos.amount") }).fill("abc");
    await page.getByRole("button", { name: t("en", "pos.create") }).click();
    await expect(page.getByText(t("en", "money.invalid"))).toBeVisible();
    await page.getByRole("textbox", { name: t("en", "pos.amount") }).fill("4.750");
    await page.getByRole("textbox", { name: t("en", "pos.customer_name") }).fill("Fahad Al-Mutairi");
    await page.getByRole("button", { name: t("en", "pos.create") }).click();
    await expect(page).toHaveURL(/\/en\/pos\/pay\/[0-9A-Za-z]{22}$/);
    await expect(page.getByRole("img", { name: /QR/ })).toBeVisible();
    await expect(page.getByTestId("pos-state")).toHaveText(t("en", "states.created"));
    await fitsTheScreen(page, 360);
    const link = await page.getByRole("textbox", { name: t("en", "pos.link") }).inputValue();
    expect(link).toMatch(/\/en\/pay\/[0-9A-Za-z]{22}$/);
    const counterUrl = page.url();

    await payOnThePhone(browser, link);

    // The counter's page follows by itself: no reload, no navigation.
    await expect(page.getByRole("heading", { name: t("en", "pos.paid") })).toBeVisible();
    expect(page.url()).toBe(counterUrl);
    await page.getByRole("link", { name: t("en", "pos.view_receipt") }).click();
    await expect(page).toHaveURL(/\/en\/pos\/attempt-detail\/[0-9A-Za-z]{22}$/);
    const receipt = page.locator(".pos-receipt");
    await expect(receipt).toContainText(t("en", "pos.outcomes.paid"));
    // What the customer paid: the amount, with the card fee the merchant passes on.
    await expect(receipt).toContainText(/KWD.4\.\d{3}/);
    await expect(page.getByRole("button", { name: t("en", "pos.print") })).toBeVisible();
    // Printed: the receipt alone, 80 mm wide, without the dashboard's frame.
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".shell__navbar")).toBeHidden();
    await expect(page.locator(".shell__header")).toBeHidden();
    await expect(page.getByRole("button", { name: t("en", "pos.print") })).toBeHidden();
    await expect(receipt).toBeVisible();
    const width = await receipt.evaluate((element) => element.getBoundingClientRect().width);
    expect(Math.round(width)).toBe(Math.round((80 / 25.4) * 96));
    await expect(page).toHaveTitle(t("en", "pos.titles.receipt"));
    // The printed page: one page of an 80 mm roll, as long as the receipt, not an A4 sheet.
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
    const boxes = [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((found) => [
      Number(found[1]),
      Number(found[2]),
    ]);
    expect(boxes).toHaveLength(1);
    const [pageWidth, pageHeight] = boxes[0]!;
    const toMm = (points: number) => (points / 72) * 25.4;
    expect(Math.round(toMm(pageWidth))).toBe(80);
    const receiptMm = ((await receipt.evaluate((element) => element.getBoundingClientRect().height)) / 96) * 25.4;
    expect(toMm(pageHeight)).toBeGreaterThanOrEqual(receiptMm);
    expect(toMm(pageHeight)).toBeLessThan(200);
  });

  test("without JavaScript the counter's page reloads itself until it shows the payment paid", async ({ browser }) => {
    const counter = await browser.newContext({ viewport: { width: 768, height: 1024 }, javaScriptEnabled: false });
    const page = await counter.newPage();
    await signIn(page, "admin");
    await page.goto("/ar/pos/pay");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await page.getByRole("textbox", { name: t("ar", "pos.amount") }).fill("2.000");
    await page.getByRole("button", { name: t("ar", "pos.create") }).click();
    await expect(page).toHaveURL(/\/ar\/pos\/pay\/[0-9A-Za-z]{22}$/);
    await expect(page.getByText(t("ar", "pos.waiting"))).toBeVisible();
    const link = await page.getByRole("textbox", { name: t("ar", "pos.link") }).inputValue();
    await payOnThePhone(browser, link.replace("/ar/", "/en/"));
    // The page's own refresh brings the paid state.
    await expect(page.getByRole("heading", { name: t("ar", "pos.paid") })).toBeVisible();
    // The Arabic receipt's heading keeps its letters joined.
    await page.getByRole("link", { name: t("ar", "pos.view_receipt") }).click();
    await expect(page).toHaveTitle(t("ar", "pos.titles.receipt"));
    const heading = page.locator(".pos-receipt__outcome");
    await expect(heading).toHaveText(t("ar", "pos.outcomes.paid"));
    expect(await heading.evaluate((element) => getComputedStyle(element).letterSpacing)).toMatch(/^(normal|0px)$/);
    await counter.close();
  });
});
