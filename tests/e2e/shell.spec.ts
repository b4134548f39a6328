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
});
