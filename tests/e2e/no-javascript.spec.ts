import { expect, test } from "./fixtures";
import { signIn, submitCredentials, urlPath } from "./support";

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("admin signs in through the plain form post", async ({ page }) => {
    await signIn(page, "admin");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, admin" })).toBeVisible();
  });

  test("a wrong password shows the error", async ({ page }) => {
    await submitCredentials(page, "admin", "Wrong@2026!");
    await expect(page).toHaveURL(urlPath("/en/login"));
    await expect(page.getByText("Unable to log in with provided credentials.")).toBeVisible();
  });
});
