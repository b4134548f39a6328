import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { BASE_URL, DEMO_PASSWORD, signIn, t, urlPath, waitForHydration, type Lang } from "./support";

/** Two payment requests of one customer, so the export has rows of its own to find. */
async function createRequests(request: APIRequestContext, email: string) {
  const token = await request.post("/api/v1/user/token/", { data: { username: "admin", password: DEMO_PASSWORD } });
  const { access } = (await token.json()) as { access: string };
  for (const amount of ["7.250", "9.500"]) {
    const answer = await request.post("/api/v1/plugins/payment_request/transaction/", {
      headers: { Authorization: `Bearer ${access}` },
      data: { currency_code: "KWD", pg_codes: ["knet-sandbox", "cod"], amount, customer_email: email },
    });
    expect(answer.status(), await answer.text()).toBe(201);
  }
}

/** Asks for an XLSX of the created requests of one customer from the Payment requests list. */
async function exportFromList(page: Page, lang: Lang, email: string) {
  await page.goto(`/${lang}/payment-request/transactions?state=created&q=${encodeURIComponent(email)}`);
  await waitForHydration(page);
  await page.locator("summary", { hasText: t(lang, "exports.button") }).click();
  // The format is called what the file is: XLSX.
  const xlsx = page.getByRole("radio", { name: t(lang, "exports.xls") });
  await expect(xlsx).toBeVisible();
  expect(t(lang, "exports.xls")).toContain("XLSX");
  await xlsx.check();
  await page.getByRole("button", { name: t(lang, "exports.submit") }).click();
  await expect(page).toHaveURL(/\/generated-reports\?id=\d+$/);
  return new URL(page.url()).searchParams.get("id")!;
}

/**
 * The report's row text at the first frame in which the "Report exported" notice shows: read in the
 * browser as the page renders, so the row and the notice are seen at the same instant.
 */
async function rowStateWhenNoticeShows(page: Page, lang: Lang, reportId: string) {
  const handle = await page.waitForFunction(
    ({ regionName, noticeTitle, reportId }) => {
      const region = [...document.querySelectorAll('[role="region"]')].find(
        (element) => element.getAttribute("aria-label") === regionName,
      );
      const notice = [...(region?.querySelectorAll("*") ?? [])].find(
        (element) => element.childElementCount === 0 && element.textContent?.trim() === noticeTitle,
      );
      if (!notice || !notice.checkVisibility()) return false;
      return document.getElementById(`report-${reportId}`)?.textContent ?? "(no row)";
    },
    { regionName: t(lang, "notifications.region"), noticeTitle: t(lang, "notifications.report_exported"), reportId },
    { polling: "raf", timeout: 30_000 },
  );
  return String(await handle.jsonValue());
}

const notices = (page: Page, lang: Lang) => page.getByRole("region", { name: t(lang, "notifications.region") });

test("the notice of an exported report names the file, closes itself and is not shown again", async ({
  page,
  request,
}) => {
  const email = "export-notice@example.com";
  await createRequests(request, email);
  await signIn(page, "admin");
  const id = await exportFromList(page, "en", email);

  // Generated reports refreshes itself while the report is made; the notice names the file, and
  // comes with the row that says the report is ready, not before it.
  const row = page.locator(`#report-${id}`);
  const notice = notices(page, "en");
  expect(await rowStateWhenNoticeShows(page, "en", id)).toContain(t("en", "reports.states.done"));
  const fileName = (await row.locator("bdi").first().textContent()) ?? "";
  expect(fileName).toMatch(/^payment-request_created_filtered_\d{8}-\d{4}\.xlsx$/);
  await expect(notice.getByText(fileName)).toBeVisible();
  await expect(notice.getByText(fileName)).toHaveCount(1);
  // The row says the report's filters in words.
  await expect(row).toContainText(`${t("en", "transactions.filters.state")}: ${t("en", "states.created")}`);
  await expect(row).toContainText(`${t("en", "transactions.search")}: “${email}”`);

  // It closes itself, though the pointer still rests where the Export button was, now under the notice.
  await expect(notice.getByText(fileName)).toHaveCount(0, { timeout: 20_000 });

  // Not on the next page, nor on a reload of this one, nor at the next poll.
  await page.goto(`/en/payment-request/transactions?q=${encodeURIComponent(email)}`);
  await waitForHydration(page);
  // The shell checks for notices at every page change: its answer is in before the page is looked at.
  const polled = page.waitForResponse(
    (response) => response.url() === `${BASE_URL}/en/notifications` && response.request().method() === "GET",
  );
  await page.goto(`/en/generated-reports?id=${id}`);
  await polled;
  await expect(page.locator(`#report-${id}`)).toBeVisible();
  await expect(notices(page, "en")).toHaveCount(0);
});

test("in Arabic: the notice reads in Arabic, the filters too, and the notice stays on its page", async ({
  page,
  request,
}) => {
  const email = "export-arabic@example.com";
  await createRequests(request, email);
  await signIn(page, "admin", DEMO_PASSWORD, "ar");
  const id = await exportFromList(page, "ar", email);
  const row = page.locator(`#report-${id}`);
  const notice = notices(page, "ar");
  expect(await rowStateWhenNoticeShows(page, "ar", id)).toContain(t("ar", "reports.states.done"));
  await expect(row).toContainText(`${t("ar", "transactions.filters.state")}: ${t("ar", "states.created")}`);
  const fileName = (await row.locator("bdi").first().textContent()) ?? "";
  await expect(notice.getByText(fileName)).toBeVisible();
  // Moving on at once: the notice stays behind.
  await page.locator('header a[href="/ar"]').click();
  await expect(page).toHaveURL(urlPath("/ar"));
  await expect(notices(page, "ar")).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the finished report's notice is shown once, on the page that shows the report", async ({ page, request }) => {
    const email = "export-nojs@example.com";
    await createRequests(request, email);
    await page.goto("/en/login");
    await page.getByRole("textbox", { name: t("en", "login.username"), exact: true }).fill("admin");
    await page.getByRole("textbox", { name: t("en", "login.password"), exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: t("en", "login.submit"), exact: true }).click();
    await expect(page).toHaveURL(urlPath("/en"));
    const id = await exportFromList(page, "en", email);
    const row = page.locator(`#report-${id}`);
    await expect(async () => {
      await page.reload();
      await expect(row.getByText(t("en", "reports.states.done"), { exact: true })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    const fileName = (await row.locator("bdi").first().textContent()) ?? "";
    // The report is marked ready in the same transaction that writes its notice: the page that first
    // shows it ready shows its notice too (once: that page marks it read).
    await expect(notices(page, "en").getByText(t("en", "notifications.report_exported"))).toBeVisible();
    await expect(notices(page, "en").getByText(fileName)).toBeVisible();
    await page.reload();
    await expect(notices(page, "en")).toHaveCount(0);
    await page.goto("/en/payment-request/transactions");
    await expect(notices(page, "en")).toHaveCount(0);
  });
});
