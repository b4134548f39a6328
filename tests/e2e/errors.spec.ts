import { expect, test } from "./fixtures";
import { signIn, t, urlPath } from "./support";

test.describe("error pages", () => {
  test("an unknown page answers 404 in English", async ({ page }) => {
    const response = await page.goto("/en/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  });

  test("an unknown page answers 404 in Arabic", async ({ page }) => {
    const response = await page.goto("/ar/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "الصفحة غير موجودة" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  });

  test("staff is denied the mailbox and creating payment requests (403)", async ({ page }) => {
    await signIn(page, "staff");
    await expect(
      page.getByRole("navigation", { name: t("en", "shell.menu") }).getByRole("link", { name: "Mailbox" }),
    ).toHaveCount(0);

    for (const path of ["/en/mailbox", "/en/payment-request/create"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page).toHaveURL(urlPath(path));
      await expect(page.getByRole("heading", { level: 1, name: "Access denied" })).toBeVisible();
      await expect(page.getByText(t("en", "errors.forbidden_message"))).toBeVisible();
    }
  });
});
