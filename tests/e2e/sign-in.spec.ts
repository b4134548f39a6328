import { expect, test } from "./fixtures";
import { signIn, submitCredentials, t, urlPath } from "./support";

test.describe("sign-in", () => {
  test("/login redirects to the English login page", async ({ page }) => {
    await page.goto("/login");
    await expect(page).toHaveURL(urlPath("/en/login"));
    await expect(page.getByRole("heading", { level: 1, name: t("en", "login.title") })).toBeVisible();
    await expect(page.getByRole("link", { name: t("en", "login.forgot_link") })).toHaveAttribute(
      "href",
      "/en/forget-password",
    );
  });

  test("signs in in English and lands on the dashboard home", async ({ page }) => {
    await page.goto("/en/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await signIn(page, "admin");
    await expect(page.getByText(t("en", "shell.greeting", { username: "admin" }), { exact: true })).toBeVisible();

    // A signed-in user does not see the login page again.
    await page.goto("/en/login");
    await expect(page).toHaveURL(urlPath("/en"));
    await expect(
      page.getByRole("heading", { level: 1, name: t("en", "home.title", { username: "admin" }) }),
    ).toBeVisible();
  });

  test("signs in in Arabic, right to left", async ({ page }) => {
    await page.goto("/ar/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1, name: t("ar", "login.title") })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "اسم المستخدم", exact: true })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "كلمة المرور", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "دخول", exact: true })).toBeVisible();

    await signIn(page, "admin", undefined, "ar");
    await expect(page.getByRole("heading", { level: 1, name: "أهلًا، admin" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(
      page
        .getByRole("navigation", { name: t("ar", "shell.menu") })
        .getByRole("link", { name: t("ar", "shell.general_info") }),
    ).toBeVisible();
  });

  test("a wrong password is refused with a message", async ({ page }) => {
    await submitCredentials(page, "admin", "Wrong@2026!");
    await expect(
      page.getByRole("alert").filter({ hasText: "Unable to log in with provided credentials." }),
    ).toBeVisible();
    await expect(page).toHaveURL(urlPath("/en/login"));
    // The username stays filled in for the next try.
    await expect(page.getByRole("textbox", { name: t("en", "login.username"), exact: true })).toHaveValue("admin");

    await page.goto("/en");
    await expect(page).toHaveURL(urlPath("/en/login"));
  });
});
