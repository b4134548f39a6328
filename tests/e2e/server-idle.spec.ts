import { expect, test } from "./fixtures";
import { BASE_URL, signIn, t, urlPath } from "./support";

test("the server ends a session idle for more than 20 minutes", async ({ page }) => {
  await signIn(page, "admin");

  const moved = await page.request.post("/__test/clock", {
    data: { ms: 21 * 60_000 },
    headers: { Origin: BASE_URL },
  });
  expect(moved.status()).toBe(200);
  expect(await moved.json()).toEqual({ ok: true });

  await page.goto("/en");
  await expect(page).toHaveURL(urlPath("/en/login"));
  await expect(page.getByRole("heading", { level: 1, name: t("en", "login.title") })).toBeVisible();
});
