import { expect, test, type Page } from "./fixtures";
import { DEMO_PASSWORD, signIn, t } from "./support";

/** A Kuwaiti civil ID whose check digit is right, and one whose check digit is wrong. */
const CIVIL_ID = "289010112348";
const MISTYPED = "289010112349";

async function apiToken(page: Page) {
  const answer = await page.request.post("/api/v1/user/token/", {
    data: { username: "admin", password: DEMO_PASSWORD },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

test.describe("a checkout field on a phone with JavaScript off, in Arabic", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });

  test("the customer is told a mistyped civil ID under the field, keeps what was typed, then pays with KNET; staff read it under its label", async ({
    page,
    browser,
  }) => {
    const token = await apiToken(page);
    const headers = { Authorization: `Bearer ${token}` };
    const fields = "/api/v1/admin/sections/payment_request/checkout-fields";
    const added = await page.request.post(fields, {
      headers,
      data: {
        name: `civil_id_${Date.now() % 100000}`,
        label_en: "Civil ID",
        label_ar: "الرقم المدني",
        placeholder_ar: "١٢ رقمًا",
        validator: "civil_id",
      },
    });
    expect(added.status(), await added.text()).toBe(201);
    const field = (await added.json()) as { id: number; name: string };
    try {
      const created = await page.request.post("/api/v1/plugins/payment_request/transaction/", {
        headers,
        data: {
          amount: "3.250",
          pg_codes: ["knet-sandbox"],
          customer_first_name: "Noura",
          description: "Abaya alteration",
        },
      });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: string };

      await page.goto(`/ar/pay/${id}`);
      const input = page.getByRole("textbox", { name: /الرقم المدني/ });
      await expect(input).toHaveAttribute("placeholder", "١٢ رقمًا");
      await input.fill(MISTYPED);
      await page.getByRole("button", { name: new RegExp(t("ar", "pay.pay_now", { amount: "" }).trim()) }).click();
      await expect(page.getByText(t("ar", "checkout_fields.errors.civil_id"))).toBeVisible();
      await expect(page.getByRole("textbox", { name: /الرقم المدني/ })).toHaveValue(MISTYPED);

      // Typed with spaces and Arabic digits, as people do.
      await page.getByRole("textbox", { name: /الرقم المدني/ }).fill("٢٨٩٠ ١٠١١ ٢٣٤٨");
      await page.getByRole("button", { name: new RegExp(t("ar", "pay.pay_now", { amount: "" }).trim()) }).click();
      // The bank's page, in the customer's language.
      await page.getByRole("textbox", { name: "رقم البطاقة" }).fill("8888880000000001");
      await page.getByRole("textbox", { name: "الرقم السري" }).fill("1234");
      await page.getByRole("button", { name: "إرسال" }).click();
      await expect(page.getByRole("heading", { name: t("ar", "result.success_title") })).toBeVisible();

      const staff = await browser.newContext();
      try {
        const dashboard = await staff.newPage();
        await signIn(dashboard, "admin", DEMO_PASSWORD, "ar");
        await dashboard.goto(`/ar/payment-request/transactions/${id}`);
        await expect(dashboard.getByRole("row", { name: new RegExp(`الرقم المدني\\s*${CIVIL_ID}`) })).toBeVisible();
      } finally {
        await staff.close();
      }
    } finally {
      await page.request.patch(`${fields}/${field.id}`, { headers, data: { is_active: false } });
    }
  });
});
