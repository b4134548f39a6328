import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, signIn, t, waitForHydration } from "./support";

// The merchant's administrator names the shop and brands its customer pages from the panel, in
// Arabic, without JavaScript; a customer's pay page then carries the new name and header colour.
test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the administrator renames the shop and sets the header colour; the pay page follows", async ({
    page,
    request,
  }) => {
    const token = await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } });
    const headers = { Authorization: `Bearer ${((await token.json()) as { access: string }).access}` };
    // The demo merchant is shared with the other tests of this server: its branding is put back after.
    const original = (await (await request.get("/api/v1/admin/merchant", { headers })).json()) as {
      unit_title_ar: string;
      header_color: string;
    };
    try {
      await signIn(page, "admin", undefined, "ar");
      await page.locator("details.disclosure-menu summary").first().click();
      await page.getByRole("link", { name: t("ar", "shell.admin_panel") }).click();
      await expect(page).toHaveURL(/\/ar\/admin\/profile$/);
      await expect(page.getByRole("heading", { level: 1, name: t("ar", "admin.profile.title") })).toBeVisible();

      const color = page.getByRole("textbox", { name: t("ar", "admin.profile.fields.header_color") });
      await color.fill("blue");
      await page.getByRole("button", { name: t("ar", "admin.profile.save") }).click();
      await expect(page.getByText(t("ar", "admin.errors.color"))).toBeVisible();

      await page.getByRole("textbox", { name: t("ar", "admin.profile.fields.unit_title_ar") }).fill("متجر الورود");
      await color.fill("#0a3d62");
      await page.getByRole("button", { name: t("ar", "admin.profile.save") }).click();
      await expect(page.getByRole("status")).toHaveText(t("ar", "admin.profile.saved"));
      await expect(page.getByRole("textbox", { name: t("ar", "admin.profile.fields.unit_title_ar") })).toHaveValue(
        "متجر الورود",
      );

      // A customer's pay page shows the new Arabic name on the new colour.
      const created = await request.post("/api/v1/plugins/payment_request/transaction/", {
        headers,
        data: { currency_code: "KWD", pg_codes: ["knet-sandbox"], amount: "4.000" },
      });
      const { id } = (await created.json()) as { id: string };
      await page.goto(`/ar/pay/${id}`);
      const header = page.locator("header").first();
      await expect(header).toContainText("متجر الورود");
      await expect(header).toHaveCSS("background-color", "rgb(10, 61, 98)");
    } finally {
      const restored = await request.patch("/api/v1/admin/merchant", {
        headers,
        data: { unit_title_ar: original.unit_title_ar, header_color: original.header_color },
      });
      expect(restored.status()).toBe(200);
    }
  });
});

test("with JavaScript, the side menu's Administration entry opens the profile, and the panel's navigation its pages", async ({
  page,
}) => {
  await signIn(page, "admin");
  await waitForHydration(page);
  const menu = page.getByRole("navigation", { name: t("en", "shell.menu") });
  await menu.getByRole("link", { name: t("en", "shell.administration") }).click();
  const panel = page.getByRole("navigation", { name: t("en", "admin.nav.label") });
  await expect(panel.getByRole("link", { name: t("en", "admin.nav.profile") })).toHaveAttribute("aria-current", "page");
  await panel.getByRole("link", { name: t("en", "admin.nav.gateways") }).click();
  await expect(page.getByRole("heading", { level: 1, name: t("en", "admin.gateways.title") })).toBeVisible();
  await panel.getByRole("link", { name: t("en", "admin.nav.profile") }).click();
  await expect(page.getByRole("heading", { level: 1, name: t("en", "admin.profile.title") })).toBeVisible();
  await expect(page.getByRole("textbox", { name: t("en", "admin.profile.fields.title_en") })).toHaveValue(/\S/);
});
