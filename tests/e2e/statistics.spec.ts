import { expect, test, type APIRequestContext, type Locator, type Page } from "./fixtures";
import { DEMO_PASSWORD, signIn, t, type Lang } from "./support";

/**
 * The statistics home (dashboard spec §2; docs/decisions/0009) as a merchant sees it: a payment
 * made on the KNET sandbox shows in every figure, with JavaScript off, in English and Arabic, and
 * the page's numbers are the ones GET dashboard/statistics answers for the same period.
 */

type Figures = {
  date_after: string;
  total_paid: { value: number };
  total_amount_paid: { currency_code: string; value: string }[];
  success_rate: { value: number | null; completed: number; succeeded: number };
  paid_per_gateway: { name: string; value: number }[];
  success_rate_per_gateway: { name: string; value: number | null }[];
  product_wise_sales: { name: string; value: number }[];
};

/** The visible text of an element, without the bidi isolates around numbers and with plain spaces. */
const textOf = async (page: Page, name: string, lang: Lang) =>
  ((await page.getByRole("region", { name: t(lang, name), exact: true }).innerText()) ?? "")
    .replace(/[\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ");

const heightOf = async (locator: Locator) => (await locator.boundingBox())?.height ?? 0;
const count = (value: number, lang: Lang) =>
  new Intl.NumberFormat(lang === "ar" ? "ar-KW-u-nu-latn" : "en-GB").format(value);
/** "1234.500" → "1,234.500", as the page groups an amount's digits. */
const grouped = (decimal: string) => decimal.replace(/^(\d+)/, (whole) => Number(whole).toLocaleString("en-GB"));
const shiftDate = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function tokenOf(request: APIRequestContext) {
  const answer = await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

async function figuresOf(request: APIRequestContext, token: string, query: string, lang: Lang = "en") {
  const answer = await request.get(`/api/v1/dashboard/statistics/?${query}`, {
    headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Figures;
}

/** A KNET-only payment request of 7.250 KWD for `email`, paid on the sandbox's approved test card. */
async function payWithKnet(page: Page, request: APIRequestContext, token: string, email: string) {
  const created = await request.post("/api/v1/plugins/payment_request/transaction/", {
    headers: { Authorization: `Bearer ${token}` },
    data: { amount: "7.250", currency_code: "KWD", pg_codes: ["knet-sandbox"], customer_email: email },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/en/pay/${id}`);
  await page.getByRole("button", { name: new RegExp(t("en", "pay.pay_now", { amount: "" }).trim()) }).click();
  await page.getByRole("textbox", { name: "Card number" }).fill("8888880000000001");
  await page.getByRole("textbox", { name: "PIN" }).fill("1234");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: t("en", "result.success_title") })).toBeVisible();
}

test.describe("the statistics home with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a payment shows in every tile, chart table and recent order, in English and Arabic", async ({
    page,
    request,
  }) => {
    const token = await tokenOf(request);
    const email = `statistics-${Date.now()}@example.com`;
    await payWithKnet(page, request, token, email);
    // Yesterday to tomorrow in the server's Kuwait calendar: the payment is in it whichever side of midnight.
    const today = (await figuresOf(request, token, "period=day")).date_after;
    const around = `period=custom&date_after=${shiftDate(today, -1)}&date_before=${shiftDate(today, 1)}`;

    await signIn(page, "admin");
    for (const lang of ["en", "ar"] as const) {
      const expected = await figuresOf(request, token, around, lang);
      expect(expected.total_paid.value).toBeGreaterThan(0);
      await page.goto(`/${lang}?${around}`);

      const paid = page.getByRole("region", { name: t(lang, "statistics.total_paid"), exact: true });
      await expect(
        paid.getByRole("link", {
          name: t(lang, "statistics.view_paid_count", { value: count(expected.total_paid.value, lang) }),
        }),
      ).toBeVisible();
      const gmv = await textOf(page, "statistics.gmv", lang);
      for (const amount of expected.total_amount_paid) expect(gmv).toContain(grouped(amount.value));
      expect(await textOf(page, "statistics.success_rate", lang)).toContain(`${expected.success_rate.value}%`);
      expect(await textOf(page, "statistics.success_rate", lang)).toContain(
        t(lang, "statistics.attempts_detail", {
          succeeded: count(expected.success_rate.succeeded, lang),
          completed: count(expected.success_rate.completed, lang),
        }),
      );

      // The charts are drawn on the server, and their numbers are shown as tables too (not only to screen readers).
      await expect(page.locator(".chart-box svg").first()).toBeVisible();
      await expect(page.getByRole("region", { name: t(lang, "statistics.trend_title.day") })).toBeVisible();
      expect(await heightOf(page.getByRole("region", { name: t(lang, "statistics.trend_title.day") }))).toBeGreaterThan(
        100,
      );
      expect(
        await heightOf(
          page.getByRole("table", { name: new RegExp(t(lang, "statistics.average_caption", { year: "\\d{4}" })) }),
        ),
      ).toBeGreaterThan(200);
      const gateways = await textOf(page, "statistics.paid_per_gateway", lang);
      for (const gateway of expected.paid_per_gateway)
        expect(gateways).toContain(`${gateway.name} ${count(gateway.value, lang)}`);
      const rates = await textOf(page, "statistics.success_per_gateway", lang);
      for (const gateway of expected.success_rate_per_gateway)
        expect(rates).toContain(`${gateway.name} ${gateway.value}%`);
      const products = await textOf(page, "statistics.product_sales", lang);
      for (const product of expected.product_wise_sales) expect(products).toContain(product.name);

      const order = page
        .getByRole("region", { name: t(lang, "statistics.recent_orders") })
        .getByRole("row", { name: new RegExp(email) });
      await expect(order).toContainText("7.250");
      await expect(order).toContainText(t(lang, "states.paid"));
    }

    // The tile opens the paid transactions of the same days: the list counts as many.
    const expected = await figuresOf(request, token, around);
    await page.goto(`/en?${around}`);
    await page.getByRole("link", { name: t("en", "statistics.view_paid"), exact: true }).click();
    await expect(page).toHaveURL(
      new RegExp(
        `/en/transactions\\?state=paid&created_after=${shiftDate(today, -1)}&created_before=${shiftDate(today, 1)}$`,
      ),
    );
    await expect(
      page.getByText(t("en", "transactions.count", { total: expected.total_paid.value.toLocaleString("en-US") }), {
        exact: true,
      }),
    ).toBeVisible();
  });

  test("periods are links, a custom period waits for both dates, and the year is a form", async ({ page }) => {
    await signIn(page, "admin");
    const periods = page.getByRole("navigation", { name: t("en", "statistics.period") });
    await expect(periods.getByRole("link", { name: t("en", "statistics.periods.day") })).toHaveAttribute(
      "aria-current",
      "page",
    );

    await periods.getByRole("link", { name: t("en", "statistics.periods.custom") }).click();
    await expect(page.getByText(t("en", "statistics.choose_dates"))).toBeVisible();
    await page.getByLabel(t("en", "statistics.from"), { exact: true }).fill("2026-01-01");
    await page.getByLabel(t("en", "statistics.to"), { exact: true }).fill("2025-12-01");
    await page.getByRole("button", { name: t("en", "statistics.apply") }).click();
    await expect(page.getByText(t("en", "statistics.errors.to_before_from"))).toBeVisible();
    await page.getByLabel(t("en", "statistics.to"), { exact: true }).fill("2026-01-31");
    await page.getByRole("button", { name: t("en", "statistics.apply") }).click();
    await expect(page).toHaveURL(/period=custom&date_after=2026-01-01&date_before=2026-01-31/);
    await expect(page.getByText(/^01 Jan 2026 – 31 Jan 2026, compared with 01 Dec 2025 – 31 Dec 2025$/)).toBeVisible();
    await expect(
      page.getByRole("region", { name: t("en", "statistics.trend_title.day") }).getByRole("row"),
    ).toHaveCount(32);

    // Leaving custom drops its dates.
    await periods.getByRole("link", { name: t("en", "statistics.periods.week") }).click();
    await expect(page).toHaveURL(/\/en\?period=week$/);
    await expect(page.getByRole("region", { name: t("en", "statistics.total_paid"), exact: true })).toBeVisible();

    const year = String(new Date().getUTCFullYear() - 3);
    await page.getByRole("combobox", { name: t("en", "statistics.year") }).selectOption(year);
    await page.getByRole("button", { name: t("en", "statistics.show") }).click();
    await expect(page).toHaveURL(new RegExp(`period=week&txn_avg_size_year=${year}`));
    await expect(page.getByRole("combobox", { name: t("en", "statistics.year") })).toHaveValue(year);
    await expect(page.getByRole("combobox", { name: t("en", "statistics.year") }).getByRole("option")).toHaveCount(10);
  });
});

test("with JavaScript on, the charts draw and the year applies as it is chosen", async ({ page }) => {
  await signIn(page, "admin", DEMO_PASSWORD, "ar");
  await page.goto("/ar?period=year");
  await expect(page.locator(".chart-box svg").first()).toBeVisible();
  await expect(page.getByRole("button", { name: t("ar", "statistics.show") })).toHaveCount(0);
  const year = String(new Date().getUTCFullYear() - 1);
  await page.getByRole("combobox", { name: t("ar", "statistics.year") }).selectOption(year);
  await expect(page).toHaveURL(new RegExp(`period=year&txn_avg_size_year=${year}`));
});
