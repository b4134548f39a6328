import { expect, test } from "./fixtures";
import { signIn, t, urlPath } from "./support";

test("after 20 idle minutes a modal ends the session", async ({ page }) => {
  await page.clock.install();
  await signIn(page, "admin");

  // Not yet at 19 minutes.
  await page.clock.fastForward("19:00");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.clock.fastForward("01:01");
  const dialog = page.getByRole("dialog", { name: "Session expired" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(t("en", "session.expired_message"))).toBeVisible();
  await dialog.getByRole("button", { name: "Ok", exact: true }).click();

  await expect(page).toHaveURL(urlPath("/en/login"));
  await expect(page.getByText("Your session has expired. Please sign in again.")).toBeVisible();

  await page.goto("/en");
  await expect(page).toHaveURL(urlPath("/en/login"));
});
