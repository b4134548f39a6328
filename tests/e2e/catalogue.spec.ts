import { expect, test, type Page } from "./fixtures";
import { signIn, t } from "./support";

// The demo merchant's shop (made by the catalogue's demo job): a purchase in Arabic on a phone with
// JavaScript off, from the product list to the paid order, then the order's lines as staff see them.

const saffron = { en: "Saffron, 30 g", ar: "زعفران، 30 غرام" };
const customer = { name: "نورة الكندري", email: "noura@example.com", phone: "50001234" };

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

let transactionId = "";
let orderNumber = "";
let orderNo = "";

test.describe("the catalogue shop", () => {
  test.describe.configure({ mode: "serial" });

  test.describe("a customer in Arabic, with JavaScript off, on a phone", () => {
    test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

    test("buys two tins of saffron with WELCOME10, pays with KNET, and finds the cart empty", async ({ page }) => {
      // The demo shop is made by a job once the server starts.
      await expect(async () => {
        await page.goto("/ar/catalogue/product-list");
        await expect(page.getByRole("link", { name: new RegExp(saffron.ar) })).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1, name: t("ar", "catalogue_public.list.title") })).toBeVisible();
      await expect(page.getByText("هدايا من الكويت")).toBeVisible();
      await fitsTheScreen(page);

      // Search, then the product's page.
      await page.getByRole("searchbox", { name: t("ar", "catalogue_public.list.search") }).fill("زعفران");
      await page.getByRole("button", { name: t("ar", "catalogue_public.list.search_button"), exact: true }).click();
      await page.getByRole("link", { name: new RegExp(saffron.ar) }).click();
      await expect(page.getByRole("heading", { level: 1, name: saffron.ar })).toBeVisible();
      await fitsTheScreen(page);
      await page.getByRole("spinbutton", { name: t("ar", "catalogue_public.detail.quantity") }).fill("2");
      await page.getByRole("button", { name: t("ar", "catalogue_public.detail.add_to_cart"), exact: true }).click();
      await expect(page.getByText(t("ar", "catalogue_public.detail.added"))).toBeVisible();
      await page
        .getByRole("main")
        .getByRole("link", { name: t("ar", "catalogue_public.detail.view_cart"), exact: true })
        .first()
        .click();

      // The cart: two tins at 9.750 each.
      await expect(page.getByRole("heading", { level: 1, name: t("ar", "catalogue_public.cart.title") })).toBeVisible();
      await expect(page.getByText(`2 × ${saffron.ar}`)).toBeVisible();
      await expect(page.locator("dl.shop-totals")).toContainText("19.500");
      await fitsTheScreen(page);
      await page.getByRole("link", { name: t("ar", "catalogue_public.cart.checkout"), exact: true }).click();

      // Checkout: the name typed, then the discount code (10 % off: 17.550), which keeps the name, then the rest.
      await expect(
        page.getByRole("heading", { level: 1, name: t("ar", "catalogue_public.checkout.title") }),
      ).toBeVisible();
      await page
        .getByRole("textbox", { name: t("ar", "catalogue_public.checkout.name"), exact: true })
        .fill(customer.name);
      await page.getByRole("textbox", { name: t("ar", "catalogue_public.checkout.discount_code") }).fill("WELCOME10");
      await page.getByRole("button", { name: t("ar", "catalogue_public.checkout.apply"), exact: true }).click();
      await expect(page.locator("dl.shop-totals")).toContainText(t("ar", "catalogue_public.totals.discount"));
      await expect(page.locator("dl.shop-totals dd.shop-totals__total")).toContainText("17.550");
      await expect(
        page.getByRole("textbox", { name: t("ar", "catalogue_public.checkout.name"), exact: true }),
      ).toHaveValue(customer.name);
      await fitsTheScreen(page);
      await page
        .getByRole("textbox", { name: t("ar", "catalogue_public.checkout.email"), exact: true })
        .fill(customer.email);
      await page
        .getByRole("textbox", { name: t("ar", "catalogue_public.checkout.phone"), exact: true })
        .fill(customer.phone);
      await expect(page.getByRole("group", { name: "متجر الاستلام" }).getByRole("radio")).toBeChecked();
      await page.getByRole("radio", { name: "كي نت" }).check();
      await page.getByRole("checkbox", { name: t("ar", "catalogue_public.checkout.accept_terms") }).check();
      await page
        .getByRole("button", { name: new RegExp(`^${t("ar", "catalogue_public.checkout.pay", { total: "" }).trim()}`) })
        .click();

      // The pay page, then KNET's sandbox.
      await expect(page).toHaveURL(/\/ar\/pay\/[^/?]+$/);
      transactionId = new URL(page.url()).pathname.split("/").pop()!;
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByText("17.550").first()).toBeVisible();
      await fitsTheScreen(page);
      await page.getByRole("button", { name: new RegExp(t("ar", "pay.pay_now", { amount: "" }).trim()) }).click();
      await expect(page.getByRole("heading", { name: "ادفع ببطاقة السحب الآلي" })).toBeVisible();
      await page.getByRole("textbox", { name: "رقم البطاقة" }).fill("8888880000000001");
      await page.getByRole("textbox", { name: "الرقم السري" }).fill("1234");
      await page.getByRole("button", { name: "إرسال", exact: true }).click();
      await expect(page.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();
      await fitsTheScreen(page);

      // Following the order: paid, and the cart is empty.
      await page.getByRole("link", { name: t("ar", "result.follow_order") }).click();
      await expect(page).toHaveURL(/\/ar\/catalogue\/cart\?/);
      await expect(page.getByText(t("ar", "catalogue_public.order.states.paid"))).toBeVisible();
      await expect(page.getByText(t("ar", "catalogue_public.cart.empty"))).toBeVisible();
      orderNumber = new URL(page.url()).searchParams.get("order") ?? "";
      expect(orderNumber).toMatch(/^[0-9A-Z]{20}$/);
      // The number people read is the transaction's order number, not the key that opens the page.
      const heading = (await page.locator(".shop-order-number").textContent()) ?? "";
      orderNo = /\d+/.exec(heading)?.[0] ?? "";
      expect(orderNo).toMatch(/^\d+$/);
      expect(heading).not.toContain(orderNumber);
      await fitsTheScreen(page);
      // On the next visit too.
      await page.goto("/ar/catalogue/cart");
      await expect(page.getByText(t("ar", "catalogue_public.cart.empty"))).toBeVisible();
      await expect(
        page.getByRole("link", { name: t("ar", "catalogue_public.nav.cart", { count: "0" }) }),
      ).toBeVisible();
    });
  });

  test("staff find the paid order among the catalogue's transactions, with its lines, its status and the store to collect from", async ({
    page,
  }) => {
    await signIn(page, "admin");
    await page.goto(`/en/catalogue/transactions/${transactionId}`);
    await expect(page.getByText(`#${orderNo}`, { exact: true }).first()).toBeVisible();
    await expect(page.getByText("Mubarakiya shop — Souq Al-Mubarakiya, Kuwait City").first()).toBeVisible();
    await expect(page.getByText(t("en", "catalogue_public.details.status")).first()).toBeVisible();
    await expect(
      page.getByText(t("en", "catalogue_public.details.states.paid"), { exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByText(new RegExp(`2 × ${saffron.en}`)).first()).toBeVisible();
    await expect(page.getByText("WELCOME10", { exact: false }).first()).toBeVisible();
    await page.goto("/en/catalogue/transactions");
    await expect(
      page.getByRole("row").filter({ hasText: customer.email }).getByText(t("en", "states.paid"), { exact: true }),
    ).toBeVisible();
  });
});
