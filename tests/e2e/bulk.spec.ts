import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { BASE_URL, signIn, t, urlPath, waitForHydration } from "./support";

const stamp = Date.now().toString(36);
const address = (index: number) => `tenant-${stamp}-${index}@example.com`;

/** A bulk file of `count` rows (a row's e-mail: tenant-<stamp>-<index>@example.com); `bad` rows get an amount with a comma. */
function writeBulk(name: string, count: number, bad: number[] = []) {
  const lines = ["amount,customer_email,customer_phone,customer_first_name,description"];
  for (let index = 0; index < count; index++)
    lines.push(
      `${bad.includes(index) ? '"1,250"' : `${(index % 9) + 1}.250`},${address(index)},,Tenant ${index},March rent`,
    );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bulk-e2e-")), name);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

test.describe.configure({ mode: "serial" });

let bulkPath = "";

test("a file with one bad row creates nothing: the bad cell is named and the error file downloads (without JavaScript)", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/en/login");
  await page.getByRole("textbox", { name: t("en", "login.username"), exact: true }).fill("admin");
  await page.getByRole("textbox", { name: t("en", "login.password"), exact: true }).fill("Demo@2026!");
  await page.getByRole("button", { name: t("en", "login.submit"), exact: true }).click();
  await expect(page).toHaveURL(urlPath("/en"));

  await page.goto("/en/bulk/uploads");
  await expect(page.getByRole("heading", { level: 1, name: t("en", "bulk.uploads.title") })).toBeVisible();
  const before = await page.getByRole("row").count();
  await page.getByLabel(t("en", "bulk.file_label")).setInputFiles(writeBulk("bad.csv", 100, [50]));
  await page.getByLabel(t("en", "bulk.schedule_label")).selectOption("monthly");
  await page.getByRole("button", { name: t("en", "bulk.upload"), exact: true }).click();

  const dialog = page.getByRole("alertdialog", { name: t("en", "bulk.rows_title") });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t("en", "bulk.rows_summary", { errors: "1", rows: "100" }));
  const row = dialog.getByRole("row").filter({ hasText: "A52" });
  await expect(row).toContainText("amount");
  await expect(row).toContainText(t("en", "money.thousands_separator"));
  // What was chosen is kept.
  await expect(page.getByLabel(t("en", "bulk.schedule_label"))).toHaveValue("monthly");
  const download = page.waitForEvent("download");
  await dialog.getByRole("link", { name: t("en", "bulk.download_report") }).click();
  const file = await (await download).path();
  const report = fs.readFileSync(file, "utf8");
  expect(report).toContain('52,amount,A52,"1,250"');
  // Nothing was created: the list of uploads is as it was.
  await page.goto("/en/bulk/uploads");
  expect(await page.getByRole("row").count()).toBe(before);
  await context.close();
});

test("a bulk of 100 rows is created, dispatched to the mailbox, and its runs and logs show each message", async ({
  page,
}) => {
  await signIn(page, "admin");
  const menu = page.getByRole("navigation", { name: t("en", "shell.menu") });
  await menu.getByRole("link", { name: t("en", "features.bulk.upload"), exact: true }).click();
  await expect(page).toHaveURL(urlPath("/en/bulk/uploads"));
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "XLSX" }).first()).toHaveAttribute(
    "href",
    "/api/v1/plugins/bulk/upload/example?type=required_fields&format=xlsx",
  );

  await page.getByLabel(t("en", "bulk.file_label")).setInputFiles(writeBulk(`rent-${stamp}.csv`, 100));
  await page.getByRole("radio", { name: t("en", "bulk.channels.email"), exact: true }).check();
  await page.getByRole("button", { name: t("en", "bulk.upload"), exact: true }).click();
  await expect(page).toHaveURL(/\/en\/bulk\/uploads\/\d+$/);
  bulkPath = new URL(page.url()).pathname;
  await expect(page.getByRole("status").filter({ hasText: t("en", "bulk.upload_done") })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `rent-${stamp}.csv` })).toBeVisible();
  // The page follows the worker's progress on its own until every message is out.
  await expect(page.getByText(t("en", "bulk.progress.finished", { done: "100", total: "100" }))).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('[data-figure="rows"]')).toHaveText("100");
  await expect(page.locator('[data-figure="created"]')).toHaveText("100");
  await expect(page.locator('[data-figure="sent"]')).toHaveText("100");
  await expect(page.locator('[data-figure="paid"]')).toHaveText("0");

  await page
    .getByRole("link", { name: t("en", "bulk.dispatch_logs.title"), exact: true })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: t("en", "bulk.dispatch_logs.title") })).toBeVisible();
  const run = page.getByRole("row").filter({ has: page.getByRole("link") });
  await expect(run).toHaveCount(1);
  await expect(run).toContainText(t("en", "bulk.run_statuses.finished"));
  await run.getByRole("link").click();
  await expect(page).toHaveURL(/\/dispatch-logs\/\d+\/transaction-logs$/);
  await expect(page.getByText(t("en", "bulk.transaction_logs.count", { count: "100" }))).toBeVisible();
  const first = page.getByRole("row").filter({ hasText: address(0) });
  await expect(first).toContainText(t("en", "bulk.results.sent"));
  await expect(first).toContainText(t("en", "bulk.channel_names.email"));
  await page.getByLabel(t("en", "bulk.transaction_logs.filter")).selectOption("failed");
  await page.getByRole("button", { name: t("en", "bulk.transaction_logs.apply") }).click();
  await expect(page.getByText(t("en", "bulk.transaction_logs.empty"))).toBeVisible();

  // The mailbox has the payment links, one to each of the 100 customers (newest first, a page at a time).
  await page.goto("/en/mailbox");
  await expect(page.getByRole("heading", { level: 1, name: t("en", "mailbox.title") })).toBeVisible();
  const reached = new Map<string, number>();
  const pattern = new RegExp(`^tenant-${stamp}-\\d+@example\\.com$`);
  for (let number = 1; reached.size < 100 && number <= 20; number++) {
    await page.goto(`/en/mailbox?page=${number}`);
    for (const cell of await page.getByRole("cell").filter({ hasText: pattern }).allTextContents())
      reached.set(cell.trim(), (reached.get(cell.trim()) ?? 0) + 1);
  }
  expect([...Array(100).keys()].filter((index) => reached.get(address(index)) !== 1)).toEqual([]);

  // The section's transactions, filtered by this bulk.
  await page.goto(bulkPath);
  await page.getByRole("link", { name: t("en", "bulk.summary.transactions"), exact: true }).click();
  await expect(page).toHaveURL(/\/en\/bulk\/transactions\?bulk=\d+$/);
  await expect(page.getByText(new RegExp(`^tenant-${stamp}-\\d+@example\\.com$`)).first()).toBeVisible();
  await expect(
    page.getByRole("status").filter({ hasText: t("en", "transactions.count", { total: "100" }) }),
  ).toBeVisible();
});

test("the bulk's pages read right to left in Arabic", async ({ page }) => {
  await signIn(page, "admin", undefined, "ar");
  await page.goto(bulkPath.replace(/^\/en\//, "/ar/"));
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByText(t("ar", "bulk.summary.figures.collected"))).toBeVisible();
  await expect(page.getByRole("button", { name: t("ar", "bulk.resend_failed", { count: "0" }) })).toBeDisabled();
});
