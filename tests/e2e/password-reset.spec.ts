import { expect, test } from "./fixtures";
import { BASE_URL, DEMO_PASSWORD, readLatestMail, signIn, t, urlPath, waitForHydration } from "./support";

const NEW_PASSWORD = "Fresh#Reset2026";

test("checker resets the password through the emailed link, then sets it back", async ({ page, browser }) => {
  await page.goto("/en/login");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(urlPath("/en/forget-password"));
  await expect(page.getByRole("heading", { level: 1, name: t("en", "forgot.title") })).toBeVisible();

  await page.getByRole("textbox", { name: "Username", exact: true }).fill("checker");
  await page.getByRole("button", { name: "Send reset link", exact: true }).click();
  await expect(
    page.getByText("If an account with this username exists, we have sent an email with a link to reset the password."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to login" })).toHaveAttribute("href", "/en/login");

  const body = await readLatestMail(browser, "Reset your password", "checker@demo-store.example");
  const link = body.match(new RegExp(`${BASE_URL}/en/reset-password\\?token=\\S+`))?.[0];
  expect(link, `no reset link in the email:\n${body}`).toBeDefined();

  await page.goto(link!);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: t("en", "reset.title") })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "must contain at least 8 characters" })).toBeVisible();

  const username = page.getByRole("textbox", { name: "Username", exact: true });
  const newPassword = page.getByRole("textbox", { name: "New password", exact: true });
  const confirmation = page.getByRole("textbox", { name: "Password confirmation", exact: true });
  const submit = page.getByRole("button", { name: "Reset password", exact: true });

  // Too short.
  await username.fill("checker");
  await newPassword.fill("Ab#1");
  await confirmation.fill("Ab#1");
  await submit.click();
  await expect(page.getByText("This password is too short. It must contain at least 8 characters.")).toBeVisible();
  await expect(newPassword).toHaveAttribute("aria-invalid", "true");

  // Not the same twice.
  await username.fill("checker");
  await newPassword.fill(NEW_PASSWORD);
  await confirmation.fill(`${NEW_PASSWORD}x`);
  await submit.click();
  await expect(page.getByText("The two password fields didn’t match.")).toBeVisible();
  await expect(confirmation).toHaveAttribute("aria-invalid", "true");

  // Accepted.
  await username.fill("checker");
  await newPassword.fill(NEW_PASSWORD);
  await confirmation.fill(NEW_PASSWORD);
  await submit.click();
  await expect(page).toHaveURL(urlPath("/en/login"));
  await expect(page.getByText("Your password has been reset. Sign in with your new password.")).toBeVisible();

  // The new password works; then set the demo password back through the account page.
  await signIn(page, "checker", NEW_PASSWORD);
  await page.goto("/en/user/password");
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Current password", exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("textbox", { name: "New password", exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("textbox", { name: "Password confirmation", exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Change password", exact: true }).click();
  await expect(page).toHaveURL(urlPath("/en/user"));
  await expect(page.getByText("Password changed successfully")).toBeVisible();

  // The demo password is back, in a browser of its own.
  const context = await browser.newContext({ baseURL: BASE_URL });
  try {
    await signIn(await context.newPage(), "checker", DEMO_PASSWORD);
  } finally {
    await context.close();
  }
});
