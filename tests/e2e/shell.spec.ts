import { expect, test } from "./fixtures";
import { openAccountMenu, signIn, t, urlPath } from "./support";

test.describe("the dashboard shell", () => {
  test("the language switch in the account menu keeps the current page", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/en/user");
    await expect(page.getByRole("heading", { level: 1, name: t("en", "user.title") })).toBeVisible();

    await openAccountMenu(page, "admin");
    await page.getByRole("link", { name: "العربية", exact: true }).click();

    await expect(page).toHaveURL(urlPath("/ar/user"));
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1, name: t("ar", "user.title") })).toBeVisible();
    await expect(page.getByText(t("ar", "shell.greeting", { username: "admin" }), { exact: true })).toBeVisible();
  });

  test("the account menu links to the account settings", async ({ page }) => {
    await signIn(page, "admin");
    await openAccountMenu(page, "admin");
    await page.getByRole("link", { name: "Account settings", exact: true }).click();
    await expect(page).toHaveURL(urlPath("/en/user"));
    await expect(page.getByRole("heading", { level: 1, name: t("en", "user.title") })).toBeVisible();
  });

  test("logout ends the session", async ({ page }) => {
    await signIn(page, "admin");
    await openAccountMenu(page, "admin");
    await page.getByRole("button", { name: "Logout", exact: true }).click();

    await expect(page).toHaveURL(urlPath("/en/login"));
    await expect(page.getByRole("status").filter({ hasText: t("en", "session.signed_out") })).toBeVisible();

    await page.goto("/en");
    await expect(page).toHaveURL(urlPath("/en/login"));
    await expect(page.getByRole("heading", { level: 1, name: t("en", "login.title") })).toBeVisible();
  });

  test("the side menu offers only built sections, and none of its links leads to a page not built yet", async ({
    page,
  }) => {
    // It opens every page the menu links to (over forty with every section built), one after another.
    test.setTimeout(240_000);
    await signIn(page, "admin");
    const menu = page.getByRole("navigation", { name: t("en", "shell.menu") });
    await expect(
      menu.getByRole("link", { name: t("en", "features.payment_request.create"), exact: true }),
    ).toBeVisible();
    await expect(menu.getByText(t("en", "sections.ticket"), { exact: true })).toBeVisible();
    await expect(menu.getByText(t("en", "sections.event"), { exact: true })).toBeVisible();
    await expect(menu.getByText(t("en", "sections.food_ordering"), { exact: true })).toBeVisible();
    await expect(menu.getByText(t("en", "sections.catalogue"), { exact: true })).toBeVisible();
    await expect(menu.getByText(t("en", "sections.bulk"), { exact: true })).toBeVisible();
    await expect(menu.getByText(t("en", "sections.customer_payment"), { exact: true })).toBeVisible();
    await expect(menu.getByText(t("en", "sections.shopify"), { exact: true })).toBeVisible();
    const hrefs = await menu
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThan(8);
    for (const href of hrefs) {
      await page.goto(href);
      await expect(page.getByRole("heading", { level: 1 }), href).toBeVisible();
      await expect(page.getByText(t("en", "not_built.title")), href).toHaveCount(0);
    }
  });
});
