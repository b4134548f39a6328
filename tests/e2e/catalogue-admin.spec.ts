import { expect, test } from "./fixtures";
import { signIn, t, urlPath, waitForHydration } from "./support";

const stamp = Date.now().toString(36);
// The smallest PNG there is: 1×1, transparent.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

test.describe("the shop's products", () => {
  test("a product created with a picture in the dashboard is listed with its picture; its slug follows the English name as it is typed", async ({
    page,
  }) => {
    const name = `Oud perfume ${stamp}`;
    await signIn(page, "admin");
    const menu = page.getByRole("navigation", { name: t("en", "shell.menu") });
    await menu.getByRole("link", { name: t("en", "features.catalogue.products"), exact: true }).click();
    await expect(page).toHaveURL(urlPath("/en/catalogue/products"));
    await expect(
      page.getByRole("heading", { level: 1, name: t("en", "catalogue_admin.products.title") }),
    ).toBeVisible();
    await page.getByRole("link", { name: t("en", "catalogue_admin.products.new"), exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: t("en", "catalogue_admin.products.new") })).toBeVisible();
    await waitForHydration(page);

    await page.getByRole("textbox", { name: t("en", "catalogue_admin.fields.name_en") }).fill(name);
    await expect(page.getByRole("textbox", { name: t("en", "catalogue_admin.products.slug") })).toHaveValue(
      `oud-perfume-${stamp}`,
    );
    await page.getByRole("textbox", { name: t("en", "catalogue_admin.fields.name_ar") }).fill(`عطر عود ${stamp}`);
    await page
      .getByRole("textbox", { name: `${t("en", "catalogue_admin.products.price")} (KWD)`, exact: true })
      .fill("18.500");
    await page.getByRole("textbox", { name: t("en", "catalogue_admin.products.inventory") }).fill("25");
    await page
      .getByLabel(t("en", "catalogue_admin.products.add_images"))
      .setInputFiles({ name: "oud.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: t("en", "catalogue_admin.save"), exact: true }).click();

    await expect(page).toHaveURL(urlPath("/en/catalogue/products"));
    await expect(page.getByText(t("en", "catalogue_admin.saved"))).toBeVisible();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
    await expect(row).toBeVisible();
    await expect(row.getByText("KWD\u00a018.500")).toBeVisible();
    await expect(row.getByText("25", { exact: true })).toBeVisible();
    const picture = row.locator("img");
    // The dashboard shows pictures at its own address, whatever the product's state.
    await expect(picture).toHaveAttribute("src", /^\/en\/catalogue\/products\/\d+\/images\/\d+$/);
    await expect
      .poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(1);
  });
});

test.describe("without JavaScript, in Arabic", () => {
  test.use({ javaScriptEnabled: false });

  test("a wrong price is explained under its field in Arabic, what was typed stays, and the corrected product is saved", async ({
    page,
  }) => {
    const name = `Dates box ${stamp}`;
    await signIn(page, "admin", undefined, "ar");
    await page.goto("/ar/catalogue/products/new");
    await expect(page.getByRole("heading", { level: 1, name: t("ar", "catalogue_admin.products.new") })).toBeVisible();
    await page.getByRole("textbox", { name: t("ar", "catalogue_admin.fields.name_en") }).fill(name);
    await page.getByRole("textbox", { name: t("ar", "catalogue_admin.fields.name_ar") }).fill(`علبة تمر ${stamp}`);
    const price = page.getByRole("textbox", {
      name: `${t("ar", "catalogue_admin.products.price")} (KWD)`,
      exact: true,
    });
    await price.fill("7.2505");
    await page.getByRole("button", { name: t("ar", "catalogue_admin.save"), exact: true }).click();

    await expect(page.getByText(t("ar", "money.too_many_decimals"))).toBeVisible();
    await expect(price).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("textbox", { name: t("ar", "catalogue_admin.fields.name_en") })).toHaveValue(name);
    await price.fill("7.250");
    await page.getByRole("button", { name: t("ar", "catalogue_admin.save"), exact: true }).click();
    await expect(page).toHaveURL(urlPath("/ar/catalogue/products"));
    const row = page
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: `علبة تمر ${stamp}`, exact: true }) });
    await expect(row.getByText(t("ar", "catalogue_admin.products.unlimited"))).toBeVisible();
    await expect(row.getByText(`dates-box-${stamp}`)).toBeVisible();
  });
});
