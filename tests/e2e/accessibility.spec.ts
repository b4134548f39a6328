import { createRequire } from "node:module";
import { expect, test, type Browser, type Page } from "./fixtures";
import { BASE_URL, DEMO_PASSWORD, signIn, t, waitForHydration, type Lang } from "./support";

/**
 * Every built page, in English and Arabic, has no serious or critical accessibility violation as
 * axe-core finds them (WCAG 2 A/AA and its best practices): contrast, names, titles, focus. A failure
 * lists each violation with the elements it was found on.
 */

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const LANGS: Lang[] = ["en", "ar"];

type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };

async function seriousViolations(page: Page) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }).axe.run(
      document,
      { resultTypes: ["violations"] },
    ),
  );
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help}\n      ${violation.nodes
          .slice(0, 6)
          .map((node) => node.target.join(" "))
          .join("\n      ")}`,
    );
}

async function expectAccessible(page: Page, path: string) {
  const answer = await page.goto(path);
  expect(answer?.status(), path).toBeLessThan(400);
  await waitForHydration(page);
  // Every page names itself in the window title.
  expect((await page.title()).trim(), `${path}: <title>`).not.toBe("");
  const violations = await seriousViolations(page);
  expect(violations, `${path}:\n    ${violations.join("\n    ")}`).toEqual([]);
}

/** The API's token for admin. */
async function apiToken(page: Page) {
  const answer = await page.request.post("/api/v1/user/token/", {
    data: { username: "admin", password: DEMO_PASSWORD },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access: string }).access;
}

/** A KNET-only payment request, through the API: its id. */
async function createRequest(page: Page, token: string, amount: string, extra: Record<string, string> = {}) {
  const created = await page.request.post("/api/v1/plugins/payment_request/transaction/", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      amount,
      currency_code: "KWD",
      pg_codes: ["knet-sandbox"],
      customer_email: `a11y-${Date.now()}@example.com`,
      description: "Accessibility check",
      ...extra,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Pays request `id` on the KNET sandbox with `card`; the URL of the result page it ends on. */
async function payWithKnet(browser: Browser, id: string, card: string) {
  const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`/en/pay/${id}`);
    await page.getByRole("button", { name: new RegExp(t("en", "pay.pay_now", { amount: "" }).trim()) }).click();
    await page.getByRole("textbox", { name: "Card number" }).fill(card);
    await page.getByRole("textbox", { name: "PIN" }).fill("1234");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    return new URL(page.url()).pathname.replace(/^\/en\//, "/");
  } finally {
    await context.close();
  }
}

test.use({ bypassCSP: true });

const DASHBOARD = [
  ["the statistics home", ""],
  ["all transactions", "/transactions"],
  ["payment requests", "/payment-request/transactions"],
  ["deleted payment requests", "/payment-request/deleted-transactions"],
  ["a payment request's details", "/payment-request/transactions/{transaction}"],
  ["creating a payment request", "/payment-request/create"],
  ["generated reports", "/generated-reports"],
  ["the mailbox", "/mailbox"],
  ["the profile", "/user"],
  ["changing the password", "/user/password"],
  ["reconciliation", "/reconciliation"],
  ["operations requests", "/ticket/approve-refund-void"],
  ["permissions requests", "/ticket/approve-permissions"],
  ["help", "/help"],
  ["the merchant profile (administration)", "/admin/profile"],
  ["users (administration)", "/admin/users"],
  ["units (administration)", "/admin/units"],
  ["a unit (administration)", "/admin/units/2"],
  ["checkout fields (administration)", "/admin/sections/payment_request/checkout-fields"],
] as const;

const PUBLIC = [
  ["sign-in", "/login"],
  ["forgotten password", "/forget-password"],
  ["the customer's pay page", "/pay/{open}"],
  ["the success result", "{success}"],
  ["the failed result", "{failed}"],
] as const;

const made: Record<string, string> = {};
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => made[name]);

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  const token = await apiToken(page);
  made.transaction = await createRequest(page, token, "2.500");
  made.open = await createRequest(page, token, "3.750");
  made.success = await payWithKnet(browser, await createRequest(page, token, "1.250"), "8888880000000001");
  made.failed = await payWithKnet(browser, await createRequest(page, token, "1.500"), "8888880000000002");
  await context.close();
});

for (const lang of LANGS) {
  test.describe(`signed in, in ${lang === "en" ? "English" : "Arabic"}`, () => {
    let page: Page;
    test.beforeAll(async ({ browser }) => {
      page = await browser.newPage({ baseURL: BASE_URL, bypassCSP: true });
      await signIn(page, "admin", DEMO_PASSWORD, lang);
    });
    test.afterAll(() => page.close());

    for (const [name, path] of DASHBOARD) {
      test(`${name} (${lang})`, async () => {
        await expectAccessible(page, `/${lang}${fill(path)}`);
      });
    }
  });

  for (const [name, path] of PUBLIC) {
    test(`${name} (${lang})`, async ({ page }) => {
      await expectAccessible(page, `/${lang}${fill(path)}`);
    });
  }
}

test("the expired result, in English and Arabic", async ({ page, browser }) => {
  const token = await apiToken(page);
  const id = await createRequest(page, token, "4.000", {
    expiration_time: new Date(Date.now() + 24 * 60 * 60_000).toISOString(),
  });
  // The customer's own clock (the test clock is kept per browser) moves past the request's expiry.
  const customer = await browser.newPage({ baseURL: BASE_URL, bypassCSP: true });
  const moved = await customer.request.post("/__test/clock", {
    data: { ms: 2 * 24 * 60 * 60_000 },
    headers: { Origin: BASE_URL },
  });
  expect(moved.status()).toBe(200);
  for (const lang of LANGS) {
    await customer.goto(`/${lang}/pay/${id}`);
    await expect(customer.getByRole("heading", { name: t(lang, "pay.expired") })).toBeVisible();
    await expectAccessible(customer, `/${lang}/pay/${id}`);
  }
  await customer.close();
});
