import { expect, test, type Page } from "./fixtures";
import { signIn, t, waitForHydration } from "./support";

const stamp = Date.now().toString(36);
const host = `fees-${stamp}.school.example`;
const code = `E2E${stamp}`
  .toUpperCase()
  .replace(/[^A-Z0-9]/g, "")
  .slice(0, 20);
const description = `Third term tuition ${stamp}`;

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test.describe.configure({ mode: "serial" });

test.describe("code pairing", () => {
  test("the merchant names its school's site with a Civil ID label and issues a code of two uses", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/en/code-pairing/sites");
    await waitForHydration(page);
    await page.getByRole("textbox", { name: t("en", "code_pairing.sites.host") }).fill(`https://${host}/pay`);
    const add = page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: t("en", "code_pairing.sites.add") }) });
    await add.getByRole("textbox", { name: t("en", "code_pairing.sites.label_en") }).fill("Civil ID");
    await add.getByRole("textbox", { name: t("en", "code_pairing.sites.label_ar") }).fill("الرقم المدني");
    await add.getByRole("button", { name: t("en", "code_pairing.sites.add") }).click();
    await expect(page.getByRole("heading", { name: host })).toBeVisible();

    await page.goto("/en/code-pairing/codes/new");
    await waitForHydration(page);
    await page.getByRole("textbox", { name: t("en", "code_pairing.fields.code") }).fill(code);
    await page.getByRole("textbox", { name: t("en", "code_pairing.fields.pair") }).fill("298041501234");
    await page.getByRole("textbox", { name: t("en", "code_pairing.fields.amount") }).fill("450.000");
    await page.getByRole("textbox", { name: t("en", "code_pairing.fields.description") }).fill(description);
    await page.getByRole("radio", { name: t("en", "code_pairing.fields.multi") }).check();
    await page.getByRole("textbox", { name: t("en", "code_pairing.fields.max_uses") }).fill("2");
    await page.getByRole("button", { name: t("en", "code_pairing.codes.issue") }).click();
    await expect(page.getByText(t("en", "code_pairing.codes.issued"))).toBeVisible();
    await expect(page.getByRole("cell", { name: code, exact: true })).toBeVisible();
  });

  test("a customer types the code and the Civil ID and lands on its pay page, in English and in Arabic without JavaScript", async ({
    browser,
  }) => {
    const landed: string[] = [];
    for (const lang of ["en", "ar"] as const) {
      const customer = await browser.newContext({
        viewport: { width: 360, height: 740 },
        javaScriptEnabled: lang === "en",
      });
      const phone = await customer.newPage();
      // The school's site links here: the page learns the merchant from the Referer.
      await phone.goto(`/${lang}/cpr`, { referer: `https://${host}/fees` });
      if (lang === "ar") await expect(phone.locator("html")).toHaveAttribute("dir", "rtl");
      const label = lang === "ar" ? "الرقم المدني" : "Civil ID";
      await expect(phone.getByRole("textbox", { name: label })).toBeVisible();
      await fitsTheScreen(phone);
      // A wrong Civil ID is said under the code, what was typed kept.
      await phone.getByRole("textbox", { name: t(lang, "cpr_public.code") }).fill(code.toLowerCase());
      await phone.getByRole("textbox", { name: label }).fill("298041509999");
      await phone.getByRole("button", { name: t(lang, "cpr_public.continue") }).click();
      await expect(phone.locator("#field-code-error")).toHaveText(t(lang, "cpr_public.errors.no_match"));
      await expect(phone.getByRole("textbox", { name: t(lang, "cpr_public.code") })).toHaveValue(code.toLowerCase());
      await fitsTheScreen(phone);
      await phone.getByRole("textbox", { name: label }).fill("298041501234");
      await phone.getByRole("button", { name: t(lang, "cpr_public.continue") }).click();
      await expect(phone).toHaveURL(new RegExp(`/${lang}/pay/[\\w-]+$`));
      // The pay page of this code's payment: its description is among the order's rows.
      await expect(phone.getByText(description)).toBeAttached();
      landed.push(new URL(phone.url()).pathname.split("/").pop()!);
      await customer.close();
    }
    // While its payment can still be paid, the code leads back to it: no second use is taken.
    expect(landed[1]).toBe(landed[0]);
  });

  test("the merchant sees the one use and its payment; a wrong Civil ID is still refused", async ({
    page,
    browser,
  }) => {
    await signIn(page, "admin");
    await page.goto("/en/code-pairing/codes");
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: code, exact: true }) });
    await expect(row.getByText(t("en", "code_pairing.codes.uses_count", { uses: "1", max: "2" }))).toBeVisible();
    await expect(row.getByRole("link", { name: /^#\d+$/ })).toHaveCount(1);
    const customer = await browser.newContext({ javaScriptEnabled: false });
    const phone = await customer.newPage();
    await phone.goto(`/en/cpr?site=${host}`);
    await phone.getByRole("textbox", { name: t("en", "cpr_public.code") }).fill(code);
    await phone.getByRole("textbox", { name: "Civil ID" }).fill("298041500000");
    await phone.getByRole("button", { name: t("en", "cpr_public.continue") }).click();
    await expect(phone.locator("#field-code-error")).toHaveText(t("en", "cpr_public.errors.no_match"));
    await customer.close();
  });
});
