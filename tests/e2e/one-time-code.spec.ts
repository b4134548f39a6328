import { expect, test } from "./fixtures";
import { readLatestMail, submitCredentials, t, urlPath, waitForHydration } from "./support";

test("otpuser signs in with the one-time code from the email, after a wrong code", async ({ page, browser }) => {
  await submitCredentials(page, "otpuser");
  await expect(page.getByRole("heading", { level: 1, name: "Enter your one-time code" })).toBeVisible();
  await expect(page.getByText(t("en", "login.code_sent"))).toBeVisible();
  await expect(page).toHaveURL(urlPath("/en/login"));
  await waitForHydration(page);

  const body = await readLatestMail(browser, "Your sign-in code", "otpuser@demo-store.example");
  const code = body.match(/Your sign-in code is (\d{6})\./)?.[1];
  expect(code, `no code in the email:\n${body}`).toBeDefined();
  const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  const codeField = page.getByRole("textbox", { name: t("en", "login.code"), exact: true });
  const verify = page.getByRole("button", { name: "Verify", exact: true });
  await codeField.fill(wrongCode);
  await verify.click();
  await expect(page.getByText("The code is not correct.", { exact: true })).toBeVisible();
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("heading", { level: 1, name: "Enter your one-time code" })).toBeVisible();

  await codeField.fill(code!);
  await verify.click();
  await expect(page).toHaveURL(urlPath("/en"));
  await expect(
    page.getByRole("heading", { level: 1, name: t("en", "home.title", { username: "otpuser" }) }),
  ).toBeVisible();
});
